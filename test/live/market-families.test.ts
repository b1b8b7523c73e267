// Market family numbers: a book remembers its markets' families, and the numbering starts again (a new generation) without a wrong answer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Market } from '../../src/domain/types.js';
import type { OddsEntry } from '../../src/live/log-entry.js';
import { keptChanges } from '../../src/live/log-render.js';
import { MarketBook } from '../../src/live/market-book.js';
import {
  familyGeneration,
  familyIdOfKey,
  familyIdOfName,
  familyOf,
  knownFamilyId,
} from '../../src/live/market-families.js';

function market(id: number, key: string): Market {
  return {
    marketId: id,
    key,
    name: key,
    outcomes: [{ selectionId: id * 10, code: 'yes', label: 'Yes', odds: 2, teamSide: null, isLocked: false }],
  };
}

function oddsEntry(marketIds: number[]): OddsEntry {
  const n = marketIds.length;
  return {
    kind: 'odds',
    position: { ms: 1, seq: 0 },
    eventId: 'ev',
    sport: 'soccer',
    league: 'l',
    at: 0,
    bytes: 0,
    count: n,
    layout: -1,
    packed: null,
    changes: {
      marketIds: Float64Array.from(marketIds),
      selectionIds: Float64Array.from(marketIds, (m) => m * 10),
      odds: new Float64Array(n).fill(2),
      locked: new Uint8Array(n),
    },
  };
}

/** Numbers enough new player families to start a new generation. */
function exhaustNumbering(): void {
  const gen = familyGeneration();
  for (let i = 0; familyGeneration() === gen; i++) familyIdOfName(`player_goals_p${gen}x${i}`);
}

describe('market families as numbers', () => {
  it("a key's family is the part before its period or line, lower-cased", () => {
    assert.equal(familyOf('totals@1h:2.5'), 'totals');
    assert.equal(familyOf('Asian_Handicap:-0.25'), 'asian_handicap');
    assert.equal(familyOf('1x2'), '1x2');
    assert.equal(familyIdOfKey('totals@q1:40.5'), familyIdOfKey('TOTALS:2.5'));
    assert.notEqual(familyIdOfKey('totals:2.5'), familyIdOfKey('1x2'));
  });

  it("a book's family numbers follow its markets, and stay right across a new generation", () => {
    const b = new MarketBook();
    b.upsert([market(1, '1x2'), market(2, 'totals:2.5'), market(3, 'player_goals_p7:0.5')]);
    assert.equal(b.familyId(0), familyIdOfName('1x2'));
    assert.equal(b.familyId(2), familyIdOfName('player_goals_p7'));
    b.upsert([market(2, 'btts')]); // the keys changed: the remembered column goes
    assert.equal(b.familyId(1), familyIdOfName('btts'));
    const before = familyGeneration();
    exhaustNumbering();
    assert.equal(familyGeneration(), before + 1);
    assert.equal(knownFamilyId('btts'), undefined, 'the new generation starts empty');
    assert.equal(b.familyId(1), familyIdOfName('btts'));
    assert.equal(b.familyId(0), familyIdOfName('1x2'));
  });

  it('a filter keeps the same changes before and after the numbering starts again', () => {
    const b = new MarketBook();
    b.upsert([market(1, '1x2'), market(2, 'totals:2.5'), market(3, 'btts'), market(4, 'totals@1h:0.5')]);
    const familyIdOf = (_: string, marketId: number): number => {
      const i = b.indexOfMarket(marketId);
      return i < 0 ? 0 : b.familyId(i);
    };
    const wanted = new Set(['totals']);
    const e1 = oddsEntry([1, 2, 2, 3, 4, 9]); // market 9 is unknown: kept
    assert.deepEqual([...keptChanges(e1, wanted, familyIdOf)], [1, 2, 4, 5]);
    exhaustNumbering();
    // A new entry, and the old one whose remembered numbers are of the last generation.
    assert.deepEqual([...keptChanges(oddsEntry([4, 3, 1, 2]), wanted, familyIdOf)], [0, 3]);
    assert.deepEqual([...keptChanges(e1, new Set(['btts', '1x2']), familyIdOf)], [0, 3, 5]);
    assert.deepEqual([...keptChanges(e1, wanted, familyIdOf)], [1, 2, 4, 5]);
  });
});
