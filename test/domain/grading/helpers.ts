// Builders for grading tests: results, markets from codes, and grades written as short tokens (W, L, P, HW, HL).
import { gradeMarket } from '../../../src/domain/grading/catalog.js';
import type { GradingInput, GradingPolicy, MarketGrade, OutcomeGrade } from '../../../src/domain/grading/types.js';
import type { EventResult, FinalStatus, Market, PlayerLine, PlayerStats, TeamSide } from '../../../src/domain/types.js';

/** W won, L lost, P refund (push), HW half won, HL half lost. */
export type Token = 'W' | 'L' | 'P' | 'HW' | 'HL';

export function tokenOf(g: OutcomeGrade): Token {
  if (g.result === 'refund') return 'P';
  if (g.voidFactor === 0.5) return g.result === 'won' ? 'HW' : 'HL';
  return g.result === 'won' ? 'W' : 'L';
}

export interface ResultSpec {
  status?: FinalStatus;
  /** Rows as `name:home-away`, space separated: `1H:1-0 2H:1-1 ET:0-0 PEN:4-2`. */
  rows?: string;
  score?: [number, number];
  winner?: TeamSide | null;
}

export function parseRows(rows: string): EventResult['periodScores'] {
  return rows
    .split(/\s+/)
    .filter((r) => r.length > 0)
    .map((r) => {
      const m = /^([A-Za-z0-9]+):(\d+)-(\d+)$/.exec(r);
      if (m === null) throw new Error(`bad row ${r}`);
      return { period: m[1]!, home: Number(m[2]), away: Number(m[3]) };
    });
}

const UNIT_ROW = /^[SGFM]\d+$/;

/**
 * A result. Without `score`: in set, game, frame and map rows (`S1`, `G1`, `F1`, `M1`) the units each
 * side won; otherwise the sum of the rows (shoot-out and penalty rows aside).
 */
export function result(spec: ResultSpec): EventResult {
  const periodScores = parseRows(spec.rows ?? '');
  const units = periodScores.length > 0 && periodScores.every((r) => UNIT_ROW.test(r.period));
  const score = spec.score
    ? { home: spec.score[0], away: spec.score[1] }
    : units
      ? {
          home: periodScores.filter((r) => r.home > r.away).length,
          away: periodScores.filter((r) => r.away > r.home).length,
        }
      : periodScores
          .filter((r) => r.period !== 'SO' && r.period !== 'PEN')
          .reduce((s, r) => ({ home: s.home + r.home, away: s.away + r.away }), { home: 0, away: 0 });
  return {
    eventId: 'ev1',
    status: spec.status ?? 'ended',
    score,
    periodScores,
    winner: spec.winner ?? null,
    endedAt: 0,
    revision: 1,
    recordedAt: 0,
  };
}

export function market(key: string, codes: readonly string[]): Market {
  return {
    marketId: 1,
    key,
    name: key,
    outcomes: codes.map((code, i) => ({
      selectionId: 100 + i,
      code,
      label: code,
      odds: 2,
      teamSide: null,
      isLocked: false,
    })),
  };
}

export function stats(players: Array<[string | number, TeamSide, Record<string, number>]>, final = true): PlayerStats {
  const lines: PlayerLine[] = players.map(([playerId, team, counters]) => ({
    playerId,
    name: String(playerId),
    team,
    counters,
  }));
  return { players: lines, final };
}

export interface GradeOptions {
  stats?: PlayerStats | null;
  policy?: GradingPolicy;
}

export function gradeWith(
  sport: string,
  key: string,
  codes: readonly string[],
  r: EventResult,
  opts: GradeOptions = {},
): MarketGrade {
  const input: GradingInput = { sport, result: r, playerStats: opts.stats ?? null };
  if (opts.policy) input.policy = opts.policy;
  return gradeMarket(market(key, codes), input);
}

/** The grade of each code as a token, e.g. `{ home: 'W', draw: 'L', away: 'L' }`; throws unless graded. */
export function tokens(
  sport: string,
  key: string,
  codes: readonly string[],
  r: EventResult,
  opts: GradeOptions = {},
): Record<string, Token> {
  const g = gradeWith(sport, key, codes, r, opts);
  if (g.status !== 'graded') throw new Error(`${key} is ${g.status}: ${g.reason}`);
  return Object.fromEntries(codes.map((c, i) => [c, tokenOf(g.outcomes[i]!)]));
}

/** Tokens in code order joined by spaces: `W L L`. */
export function line(
  sport: string,
  key: string,
  codes: readonly string[],
  r: EventResult,
  opts: GradeOptions = {},
): string {
  const t = tokens(sport, key, codes, r, opts);
  return codes.map((c) => t[c]).join(' ');
}

export const THREE_WAY = ['home', 'draw', 'away'] as const;
export const TWO_WAY = ['home', 'away'] as const;
export const OVER_UNDER = ['over', 'under'] as const;
