// Explanations cannot disagree with their grades: every family regraded from its explanation's own figures, over seeded random results.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { explainMarket, type OutcomeExplanation } from '../../../src/domain/grading/explain.js';
import { DEFAULT_GRADING_POLICY, type GradingPolicy, type OutcomeGrade } from '../../../src/domain/grading/types.js';
import { FAMILIES } from '../../../src/domain/families/index.js';
import type { EventResult, FinalStatus, PlayerStats, Score, TeamSide } from '../../../src/domain/types.js';
import { market, result, stats } from './helpers.js';

/** mulberry32: a small seeded generator, so every run sees the same results. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEED = 20261129;
const ROUNDS = 400;

type Pick = <T>(xs: readonly T[]) => T;

interface Drawn {
  sport: string;
  result: EventResult;
  stats: PlayerStats | null;
  policy: GradingPolicy;
}

/** A random result of a random sport: rows per its periods, sometimes unfinished, cancelled or a walkover. */
function drawResult(r: () => number, pick: Pick, only?: string): Drawn {
  const n = (max: number): number => Math.floor(r() * (max + 1));
  const sport =
    only ?? pick(['soccer', 'ice_hockey', 'basketball', 'tennis', 'cs2', 'dota2', 'mma', 'handball', 'snooker']);
  const status: FinalStatus = r() < 0.75 ? 'ended' : pick(['abandoned', 'retired', 'walkover', 'cancelled'] as const);
  let rows: string[] = [];
  let winner: TeamSide | null = null;
  switch (sport) {
    case 'soccer':
    case 'handball': {
      rows = [`1H:${n(3)}-${n(3)}`, `2H:${n(3)}-${n(3)}`];
      if (r() < 0.2) rows.push(`ET:${n(1)}-${n(1)}`, `PEN:${n(5)}-${n(5)}`);
      break;
    }
    case 'ice_hockey':
      rows = [`P1:${n(2)}-${n(2)}`, `P2:${n(2)}-${n(2)}`, `P3:${n(2)}-${n(2)}`];
      if (r() < 0.3) rows.push(`OT:${n(1)}-${n(1)}`);
      // A shoot-out tally: the decider when `winner` is not given (the score stays level).
      if (only === 'ice_hockey' && r() < 0.3) rows.push(`SO:${n(3)}-${n(3)}`);
      break;
    case 'basketball':
      rows = [1, 2, 3, 4].map((q) => `Q${q}:${15 + n(20)}-${15 + n(20)}`);
      if (r() < 0.2) rows.push(`OT:${n(12)}-${n(12)}`);
      break;
    case 'tennis':
    case 'cs2':
    case 'dota2':
    case 'snooker': {
      const units = 1 + n(4);
      const row = sport === 'tennis' ? 'S' : sport === 'dota2' ? 'G' : sport === 'snooker' ? 'F' : 'M';
      const hi = sport === 'tennis' ? 7 : sport === 'cs2' ? 16 : 1;
      for (let i = 1; i <= units; i++) {
        const homeWins = r() < 0.5;
        const lo = n(hi - 1 >= 0 ? Math.max(0, hi - 2) : 0);
        rows.push(`${row}${i}:${homeWins ? hi : lo}-${homeWins ? lo : hi}`);
      }
      break;
    }
    case 'mma':
      rows = Array.from({ length: 1 + n(4) }, (_, i) => `R${i + 1}:0-0`);
      break;
  }
  if (r() < 0.5) winner = pick(['home', 'away'] as const);
  const base = result({ status, rows: rows.join(' '), winner });
  if (sport === 'mma')
    base.score = pick([
      { home: 1, away: 0 },
      { home: 0, away: 1 },
      { home: 0, away: 0 },
    ]);
  const players = stats(
    [
      ['p1', 'home', { minutes: 90, goals: n(3), shots: n(6) }],
      ['p2', 'away', { minutes: pick([0, 45, 90]), goals: n(2) }],
    ],
    r() < 0.85,
  );
  const policy: GradingPolicy = {
    tennisRetirement: pick(['one_set_completed', 'first_ball', 'refund'] as const),
    walkover: pick(['refund', 'award_moneyline'] as const),
    esportsForfeit: pick(['award_if_map_played', 'refund'] as const),
  };
  return { sport, result: base, stats: r() < 0.9 ? players : null, policy };
}

const FIXED_PERIODS: Record<string, readonly string[]> = {
  soccer: ['1h', '2h'],
  handball: ['1h', '2h'],
  ice_hockey: ['p1', 'p2', 'p3'],
  basketball: ['1h', 'q1', 'q4', 'ot'],
  tennis: ['s1', 's3'],
  cs2: ['m1', 'm2'],
  dota2: ['m1', 'm3'],
  snooker: ['f1', 'f2'],
  mma: [],
};

const UNIT_PERIOD: Record<string, string> = { set_winner: 's', game_winner: 'g', frame_winner: 'f', map_winner: 'm' };

/** A random market of a family: its key (line and period as the family takes them) and codes. */
function drawMarket(family: string, sport: string, r: () => number, pick: Pick): { key: string; codes: string[] } {
  const d = FAMILIES.find((f) => f.key === family);
  if (d === undefined) throw new Error(family);
  let key = family;
  if (d.period === 'required') key += `@${UNIT_PERIOD[family] ?? 's'}${1 + Math.floor(r() * 4)}`;
  else if (d.period === 'any' && r() < 0.35 && (FIXED_PERIODS[sport] ?? []).length > 0)
    key += `@${pick(FIXED_PERIODS[sport] ?? [])}`;
  if (d.line === 'quarters') key += `:${(Math.floor(r() * 41) - 20) / 4 + (family.includes('total') ? 3 : 0)}`;
  if (d.line === 'whole') key += `:${Math.floor(r() * 5) - 2}`;
  if (d.outcomes.kind === 'fixed') return { key, codes: [...d.outcomes.codes] };
  switch (family) {
    case 'winning_margin':
      return { key, codes: ['home_1', 'home_2', 'home_3+', 'draw', 'away_1', 'away_2', 'away_3+'] };
    case 'set_betting':
      return { key, codes: ['2-0', '2-1', '1-2', '0-2', '3-0', '3-1', '3-2', '0-3'] };
    case 'correct_score':
      return { key, codes: ['0-0', '1-0', '0-1', '1-1', '2-1', '1-2', '2-2', 'other'] };
    case 'exact_total':
      return { key, codes: ['0', '1', '2', '3', '4+'] };
    default:
      throw new Error(`no codes for ${family}`);
  }
}

// ---- The oracle: a result from an explanation's figures alone, written apart from the graders. ----

type Regraded = { result: OutcomeGrade['result']; void_factor: number | null };
const WON: Regraded = { result: 'won', void_factor: null };
const LOST: Regraded = { result: 'lost', void_factor: null };
const REFUND: Regraded = { result: 'refund', void_factor: null };
const wonIf = (c: boolean): Regraded => (c ? WON : LOST);

/** `value + line` against 0; a quarter line as two half stakes on line ∓ 0.25, averaged. */
function cover(value: number, line: number): Regraded {
  const one = (l: number): number => Math.sign(value + l);
  if (Number.isInteger(line * 2)) return [LOST, REFUND, WON][one(line) + 1]!;
  const avg = (one(line - 0.25) + one(line + 0.25)) / 2;
  if (avg === 1) return WON;
  if (avg === -1) return LOST;
  return { result: avg > 0 ? 'won' : 'lost', void_factor: 0.5 };
}

const REFUND_RULES = new Set([
  'cancelled',
  'period_not_played',
  'abandoned_refund',
  'tie_refund',
  'did_not_play',
  'ungradeable',
]);

function regrade(family: string, code: string, codes: readonly string[], e: OutcomeExplanation): Regraded {
  if (REFUND_RULES.has(e.rule)) return REFUND;
  if (['decider', 'walkover', 'retirement', 'esports_forfeit'].includes(e.rule)) {
    return e.winner === null ? REFUND : wonIf(code === e.winner);
  }
  const s: Score = e.score ?? { home: -1, away: -1 };
  const margin = s.home - s.away;
  const side = (c: string): string => (c === 'home' ? 'home' : c === 'away' ? 'away' : c);
  const total = s.home + s.away;
  const ou = (count: number): Regraded => {
    assert.notEqual(e.line, null, 'an over/under explanation names its line');
    return code === 'over' ? cover(count, -e.line!) : cover(-count, e.line!);
  };
  switch (family) {
    case 'asian_handicap':
    case 'set_handicap':
      return cover(side(code) === 'home' ? margin : -margin, e.line!);
    case 'totals':
    case 'total_sets':
      return ou(total);
    case 'team_totals_home':
      return ou(s.home);
    case 'team_totals_away':
      return ou(s.away);
    // Ice hockey incl. overtime and the shoot-out: the score already holds the shoot-out goal.
    case 'puck_line_ot':
      return cover(side(code) === 'home' ? margin : -margin, e.line!);
    case 'totals_ot':
      return ou(total);
    case 'team_totals_home_ot':
      return ou(s.home);
    case 'team_totals_away_ot':
      return ou(s.away);
    case 'fight_rounds':
    case 'player_<stat>_<player_id>':
      assert.notEqual(e.stat, null, 'a stat market names its stat');
      return ou(e.stat!.value);
    case '1x2':
    case 'handicap_3way': {
      const m = margin + (e.line ?? 0);
      return wonIf(code === (m > 0 ? 'home' : m < 0 ? 'away' : 'draw'));
    }
    case 'double_chance': {
      const actual = margin > 0 ? 'home' : margin < 0 ? 'away' : 'draw';
      return wonIf(code.split('_').includes(actual));
    }
    case 'draw_no_bet':
    case 'set_winner':
    case 'game_winner':
    case 'frame_winner':
    case 'map_winner':
      return margin === 0 ? REFUND : wonIf((code === 'home') === margin > 0);
    case 'moneyline':
    case 'to_qualify':
      return wonIf((code === 'home') === margin > 0);
    case 'ht_ft': {
      const h = e.half_time_score!;
      const r3 = (x: Score): string => (x.home > x.away ? 'home' : x.home < x.away ? 'away' : 'draw');
      return wonIf(code === `${r3(h)}/${r3(s)}`);
    }
    case 'winning_margin': {
      if (code === 'draw') return wonIf(margin === 0);
      const [, who, k, plus] = /^(home|away)_(\d+)(\+?)$/.exec(code)!;
      const by = who === 'home' ? margin : -margin;
      return wonIf(plus === '+' ? by >= Number(k) : by === Number(k));
    }
    case 'set_betting':
    case 'correct_score': {
      const actual = `${s.home}-${s.away}`;
      if (code === 'other') return wonIf(!codes.includes(actual));
      return wonIf(code === actual);
    }
    case 'exact_total': {
      const [, k, plus] = /^(\d+)(\+?)$/.exec(code)!;
      return wonIf(plus === '+' ? total >= Number(k) : total === Number(k));
    }
    case 'btts':
      return wonIf((code === 'yes') === (s.home > 0 && s.away > 0));
    case 'odd_even':
      return wonIf((code === 'odd') === (total % 2 === 1));
    default:
      throw new Error(`the oracle has no rule for ${family}`);
  }
}

/** Families of one sport: drawn on that sport's results only (elsewhere they are not graded). */
const SPORT_OF: Readonly<Record<string, string>> = {
  puck_line_ot: 'ice_hockey',
  totals_ot: 'ice_hockey',
  team_totals_home_ot: 'ice_hockey',
  team_totals_away_ot: 'ice_hockey',
};

describe('every explanation regrades to its own result', () => {
  const families = [...FAMILIES.map((d) => d.key), 'player_<stat>_<player_id>'];
  test('the ice hockey families incl. overtime are among them', () => {
    for (const f of Object.keys(SPORT_OF)) assert.ok(families.includes(f), f);
  });
  for (const family of families) {
    test(`${family}: ${ROUNDS} seeded random results, each outcome regraded from its explanation's figures`, () => {
      const r = rng(SEED ^ [...family].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7));
      const pick: Pick = (xs) => xs[Math.floor(r() * xs.length)]!;
      let graded = 0;
      for (let i = 0; i < ROUNDS; i++) {
        const drawn = drawResult(r, pick, SPORT_OF[family]);
        const m =
          family === 'player_<stat>_<player_id>'
            ? {
                key: `player_${pick(['goals', 'shots'])}_${pick(['p1', 'p2', 'p3'])}:${pick([0.5, 1, 1.25, 1.75, 2])}`,
                codes: ['over', 'under'],
              }
            : drawMarket(family, drawn.sport, r, pick);
        const { grade, explanations } = explainMarket(market(m.key, m.codes), {
          sport: drawn.sport,
          result: drawn.result,
          playerStats: drawn.stats,
          policy: drawn.policy,
        });
        if (grade.status === 'pending') {
          assert.equal(explanations, null);
          continue;
        }
        assert.ok(explanations !== null);
        assert.equal(explanations.length, m.codes.length);
        const outcomes: OutcomeGrade[] =
          grade.status === 'graded' ? grade.outcomes : m.codes.map(() => ({ result: 'refund' as const }));
        m.codes.forEach((code, j) => {
          const e = explanations[j]!;
          const g = outcomes[j]!;
          const where = `${m.key} ${code} (${drawn.sport} ${drawn.result.status} ${JSON.stringify(drawn.result.periodScores)}): ${e.text}`;
          assert.ok(e.text.length > 0 && !e.text.includes('undefined') && !e.text.includes('null'), where);
          assert.equal(e.void_factor, g.voidFactor ?? null, where);
          if (SPORT_OF[family] !== undefined && !REFUND_RULES.has(e.rule) && drawn.result.status === 'ended') {
            // A level score cannot remain once overtime and the shoot-out count.
            assert.equal(e.scope, 'full_game_shootout', where);
            assert.notEqual(e.score!.home, e.score!.away, where);
          }
          const again = regrade(family, code, m.codes, e);
          assert.deepEqual(again, { result: g.result, void_factor: g.voidFactor ?? null }, where);
        });
        graded++;
      }
      assert.ok(graded > ROUNDS / 2, `${family}: most draws are graded (${graded})`);
    });
  }
});

describe('explanation sentences', () => {
  const explain = (sport: string, key: string, codes: string[], rows: string, extra: Partial<EventResult> = {}) => {
    const res = { ...result({ rows }), ...extra };
    const { explanations } = explainMarket(market(key, codes), {
      sport,
      result: res,
      playerStats: null,
      policy: DEFAULT_GRADING_POLICY,
    });
    assert.ok(explanations !== null);
    return explanations;
  };

  test('asian handicap -0.25 with home 2-1: margin +1 -0.25, both halves won', () => {
    const [home, away] = explain('soccer', 'asian_handicap:-0.25', ['home', 'away'], '1H:1-0 2H:1-1');
    assert.equal(home!.rule, 'handicap_quarter');
    assert.deepEqual(home!.score, { home: 2, away: 1 });
    assert.equal(home!.scope, 'regulation');
    assert.equal(home!.line, -0.25);
    assert.equal(away!.line, 0.25);
    assert.match(home!.text, /home margin \+1 with -0\.25/);
    assert.match(home!.text, /→ won\.$/);
    assert.match(away!.text, /→ lost\.$/);
  });

  test('a quarter line on a draw: one half refunded, the other lost or won', () => {
    const [home, away] = explain('soccer', 'asian_handicap:-0.25', ['home', 'away'], '1H:1-1 2H:0-0');
    assert.equal(home!.void_factor, 0.5);
    assert.match(home!.text, /-0\.5: -0\.5 lost; 0: 0 refund/);
    assert.match(home!.text, /half lost, half refunded/);
    assert.match(away!.text, /half won, half refunded/);
  });

  test('a whole line landing is a push: handicap_push, total_push', () => {
    const [home] = explain('soccer', 'asian_handicap:-1', ['home', 'away'], '1H:2-1 2H:0-0');
    assert.equal(home!.rule, 'handicap_push');
    assert.match(home!.text, /whole line lands/);
    const [over] = explain('soccer', 'totals:3', ['over', 'under'], '1H:2-1 2H:0-0');
    assert.equal(over!.rule, 'total_push');
    assert.equal(over!.void_factor, null);
  });

  test('ice hockey 1x2 reads regulation P1-P3: an overtime winner is still a draw', () => {
    const [, draw] = explain('ice_hockey', '1x2', ['home', 'draw', 'away'], 'P1:1-0 P2:0-1 P3:1-1 OT:1-0');
    assert.equal(draw!.scope, 'regulation');
    assert.deepEqual(draw!.score, { home: 2, away: 2 });
    assert.match(draw!.text, /^Regulation time \(P1-P3; overtime and shoot-out excluded\) 2-2/);
  });

  test('moneyline on a level score decided by the shoot-out names the decider and its winner', () => {
    const [home] = explain('ice_hockey', 'moneyline', ['home', 'away'], 'P1:1-1 P2:0-0 P3:0-0 OT:0-0 SO:1-0', {
      winner: 'home',
      score: { home: 1, away: 1 },
    });
    assert.equal(home!.rule, 'decider');
    assert.equal(home!.winner, 'home');
    assert.match(home!.text, /decider/);
  });

  test('a period never played is refunded with period_not_played', () => {
    const [home] = explain('soccer', '1x2@2h', ['home', 'draw', 'away'], '1H:1-0', { status: 'abandoned' });
    assert.equal(home!.rule, 'period_not_played');
    assert.equal(home!.scope, '2h');
  });

  test('a tennis retirement names the policy that gave the match away', () => {
    const [home, away] = explain('tennis', 'moneyline', ['home', 'away'], 'S1:6-4 S2:2-3', {
      status: 'retired',
      winner: 'home',
      score: { home: 1, away: 0 },
    });
    assert.equal(home!.rule, 'retirement');
    assert.match(home!.text, /retirement policy \(one_set_completed\)/);
    assert.equal(away!.winner, 'home');
  });

  test('a corrected result says its revision', () => {
    const [home] = explain('soccer', '1x2', ['home', 'draw', 'away'], '1H:1-0 2H:0-0', { revision: 2 });
    assert.equal(home!.result_revision, 2);
    assert.match(home!.text, /corrected result, revision 2/);
  });

  test('a player prop names the stat and the player it read', () => {
    const res = result({ rows: '1H:1-0 2H:0-0' });
    const { explanations } = explainMarket(market('player_goals_p7:0.5', ['over', 'under']), {
      sport: 'soccer',
      result: res,
      playerStats: stats([['p7', 'home', { minutes: 90, goals: 2 }]]),
    });
    assert.deepEqual(explanations![0]!.stat, { name: 'goals', player_id: 'p7', value: 2 });
    assert.match(explanations![0]!.text, /^Player p7 goals 2 against 0\.5: over \+1\.5 → won\.$/);
  });

  test('a cancelled event refunds with the cancelled rule', () => {
    const [home] = explain('soccer', 'totals:2.5', ['over', 'under'], '', { status: 'cancelled' });
    assert.equal(home!.rule, 'cancelled');
  });
});
