// The family descriptors are the one source: docs/markets.md, the grading catalog and settlement phases (src and bench) agree with them.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { isMainMarket, isPlayerProp } from '../../../bench/settlement-books.js';
import { familyIndexTable, INDEX_BEGIN, INDEX_END } from '../../../src/domain/families/docs-index.js';
import {
  FAMILIES,
  familyOf,
  isOutcomeCode,
  MAIN_FAMILIES,
  PLAYER_PROP,
  type FamilySection,
} from '../../../src/domain/families/index.js';
import { GRADED_FAMILIES, isGradedFamily } from '../../../src/domain/grading/catalog.js';
import { formatMarketKey } from '../../../src/domain/market-key.js';
import { phaseOf } from '../../../src/pipeline/settlement/phases.js';

const doc = readFileSync('docs/markets.md', 'utf8');

/** A markdown table's rows as trimmed cells, the separator row left out (prettier's alignment aside). */
function cells(table: string): string[][] {
  return table
    .split('\n')
    .filter((l) => l.startsWith('|') && !/^\|[\s|:-]+\|$/.test(l))
    .map((l) =>
      l
        .slice(1, -1)
        .split('|')
        .map((c) => c.trim()),
    );
}

/** The families listed in the first column of the table under a `### title` heading of docs/markets.md. */
function sectionFamilies(title: string): string[] {
  const from = doc.indexOf(`\n### ${title}\n`);
  assert.ok(from >= 0, `docs/markets.md has no "### ${title}"`);
  const next = doc.indexOf('\n#', from + 5);
  const body = doc.slice(from, next < 0 ? undefined : next);
  return [...body.matchAll(/^\| `([a-z0-9_]+)[`@:]/gm)].flatMap((m) => {
    // `team_totals_home:L`, `team_totals_away:L` share a row.
    const row = body.slice(m.index).split('\n')[0]!.split('|')[1]!;
    return [...row.matchAll(/`([a-z0-9_]+)[`@:]/g)].map((x) => x[1]!);
  });
}

/** A key of the family, full game, with a line when the family needs one. */
function keyOf(family: string, period: string | null): string {
  const d = familyOf(family)!;
  return formatMarketKey({ family, period, line: d.line === 'none' ? null : 1.5 });
}

describe('family descriptors', () => {
  test('keys are unique and every family has a grading rule', () => {
    assert.equal(new Set(FAMILIES.map((d) => d.key)).size, FAMILIES.length);
    assert.deepEqual(
      GRADED_FAMILIES,
      FAMILIES.map((d) => d.key),
    );
    for (const d of FAMILIES) assert.ok(isGradedFamily(d.key), d.key);
    assert.equal(familyOf('player_goals_p12'), PLAYER_PROP);
    assert.equal(familyOf('player_goals'), undefined);
    assert.equal(familyOf('corners'), undefined);
  });
  test('outcome codes: fixed lists are distinct, patterns accept what docs show and reject the rest', () => {
    for (const d of FAMILIES) {
      if (d.outcomes.kind === 'fixed') assert.equal(new Set(d.outcomes.codes).size, d.outcomes.codes.length, d.key);
    }
    assert.ok(isOutcomeCode(familyOf('correct_score')!, '2-1'));
    assert.ok(isOutcomeCode(familyOf('correct_score')!, 'other'));
    assert.ok(!isOutcomeCode(familyOf('correct_score')!, 'home'));
    assert.ok(isOutcomeCode(familyOf('exact_total')!, '6+'));
    assert.ok(isOutcomeCode(familyOf('winning_margin')!, 'away_3+'));
    assert.ok(!isOutcomeCode(familyOf('winning_margin')!, 'away'));
    assert.ok(!isOutcomeCode(familyOf('1x2')!, 'over'));
  });
});

describe('docs/markets.md is derived from the descriptors', () => {
  test('the family index is the one the descriptors render (scripts/families-doc.mjs)', () => {
    const from = doc.indexOf(INDEX_BEGIN);
    const to = doc.indexOf(INDEX_END);
    assert.ok(from >= 0 && to > from, 'the family index markers are in docs/markets.md');
    assert.deepEqual(cells(doc.slice(from + INDEX_BEGIN.length, to)), cells(familyIndexTable()));
  });
  test('every family of the index has its settlement phase', () => {
    const rows = cells(familyIndexTable()).slice(1);
    assert.equal(rows.length, FAMILIES.length + 1);
    for (const d of FAMILIES) {
      const row = rows.find((r) => r[0] === `\`${d.key}\``)!;
      assert.equal(row[5]!.startsWith('main'), MAIN_FAMILIES.includes(d.key), d.key);
    }
  });
  const sections: ReadonlyArray<readonly [string, FamilySection]> = [
    ['Result markets', 'result'],
    ['Lines', 'lines'],
    ['Accepted from other producers', 'accepted'],
  ];
  for (const [title, section] of sections) {
    test(`"${title}" lists exactly the ${section} descriptors, in their order`, () => {
      assert.deepEqual(
        sectionFamilies(title),
        FAMILIES.filter((d) => d.section === section).map((d) => d.key),
      );
    });
  }
  test('docs/settlement.md names the main families', () => {
    const settlement = readFileSync('docs/settlement.md', 'utf8').replace(/\s+/g, ' ');
    const names: Readonly<Record<string, string>> = {
      asian_handicap: 'Asian handicap',
      double_chance: 'double chance',
      draw_no_bet: 'draw no bet',
      btts: 'BTTS',
      puck_line_ot: 'puck line incl. OT',
      totals_ot: 'totals incl. OT',
    };
    const listed = /main full-game markets \(([^)]*)\)/.exec(settlement);
    assert.ok(listed !== null, 'docs/settlement.md lists the main markets');
    const words = listed[1]!.split(/,\s*/);
    assert.deepEqual(words.sort(), MAIN_FAMILIES.map((f) => names[f] ?? f).sort());
  });
});

describe('settlement phases: src and bench agree, by construction', () => {
  const keys = [
    ...FAMILIES.flatMap((d) => [
      ...(d.period === 'required' ? [] : [keyOf(d.key, null)]),
      ...(d.period === 'none' ? [] : [keyOf(d.key, '1h')]),
    ]),
    'player_goals_p12:0.5',
    'corners:9.5',
    'not a key',
  ];
  test('main families settle first on the full game, never in a period', () => {
    for (const d of FAMILIES) {
      if (d.period !== 'required') assert.equal(phaseOf(keyOf(d.key, null)), d.main ? 0 : 1, d.key);
      if (d.period !== 'none') assert.equal(phaseOf(keyOf(d.key, '1h')), 1, d.key);
    }
    assert.equal(phaseOf('player_goals_p12:0.5'), 2);
    assert.equal(phaseOf('corners:9.5'), 1);
  });
  test('the bench times the markets settlement settles first', () => {
    for (const k of keys) {
      assert.equal(isMainMarket(k), phaseOf(k) === 0, k);
      assert.equal(isPlayerProp(k), phaseOf(k) === 2, k);
    }
  });
  test('moneyline is a main market for the bench too (it was left out)', () => {
    assert.ok(isMainMarket('moneyline'));
    assert.ok(!isMainMarket('moneyline@s1'));
  });
});
