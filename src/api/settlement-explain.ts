// Explanations of stored settlement entries, derived at read time from the stored grades and the grading inputs still held.
import { explainMarket, ruleExplanation, type OutcomeExplanation } from '../domain/grading/explain.js';
import { DEFAULT_GRADING_POLICY, type GradingPolicy } from '../domain/grading/types.js';
import type { ResolvedMarket, ResolvedOutcome } from '../domain/resolved-market.js';
import type { EventResult, Market, PlayerStats } from '../domain/types.js';
import type { ApiContext } from './context.js';

export type ExplainedOutcome = ResolvedOutcome & { explanation: OutcomeExplanation };
export type ExplainedMarket = Omit<ResolvedMarket, 'outcomes'> & { outcomes: ExplainedOutcome[] };

/** What an entry's markets were graded from, as far as this node still holds it. */
export interface GradingSource {
  /** The archived result; null when none was ever recorded (the 48-hour refund of a postponed event). */
  result: EventResult | null;
  sport: string;
  /** The event's player statistics (from memory, else as stored with the event). */
  playerStats: PlayerStats | null;
  policy: GradingPolicy;
  /** Outcome codes by selection id from the live book (entries settled before codes were stored). */
  liveCodes: ReadonlyMap<number, string>;
  finalScore: { home: number; away: number };
}

/** The grading source of an event: result from the archive, stats and codes from memory while it is there. */
export async function gradingSourceOf(
  ctx: Pick<ApiContext, 'readModel' | 'results' | 'settings' | 'store'>,
  eventId: string,
  sport: string,
  finalScore: { home: number; away: number },
): Promise<GradingSource> {
  const le = ctx.readModel.get(eventId);
  const liveCodes = new Map<number, string>();
  if (le !== undefined)
    for (const m of le.book.markets()) for (const o of m.outcomes) liveCodes.set(o.selectionId, o.code);
  return {
    result: await ctx.results.result(eventId),
    sport,
    // After the event has left memory its last statistics are in the store with its document.
    playerStats: le !== undefined ? le.event.playerStats : ((await ctx.store.getPlayerStats?.(eventId)) ?? null),
    policy: ctx.settings.gradingPolicy ?? DEFAULT_GRADING_POLICY,
    liveCodes,
    finalScore,
  };
}

const RESULT_WORDS: Record<ResolvedOutcome['result'], string> = { won: 'won', lost: 'lost', refund: 'refunded' };

/**
 * An outcome whose grading inputs are no longer all held (its event left memory before codes or
 * final statistics were kept, or the grading policy changed since): what was settled, on what.
 */
function asSettled(o: ResolvedOutcome, src: GradingSource): OutcomeExplanation {
  const e = ruleExplanation(
    'as_settled',
    `settled ${RESULT_WORDS[o.result]}${o.void_factor !== undefined ? ` (half refunded)` : ''} on the final score ${src.finalScore.home}-${src.finalScore.away}; the figures it was graded on are no longer all held, so it is not regraded here`,
    src.result?.revision ?? null,
  );
  e.void_factor = o.void_factor ?? null;
  return e;
}

const sameGrade = (o: ResolvedOutcome, e: { result: string; voidFactor?: number }): boolean =>
  o.result === e.result && (o.void_factor ?? null) === (e.voidFactor ?? null);

/**
 * Each stored outcome with its explanation. The market is regraded by the catalog (explainMarket)
 * from the grading source; the explanation is served only when that grade is the stored one, so an
 * explanation can never disagree with the result beside it: a market regraded differently (inputs
 * gone, the policy changed) is explained by what was stored (`as_settled`).
 */
export function explainResolved(markets: readonly ResolvedMarket[], src: GradingSource): ExplainedMarket[] {
  return markets.map((m) => ({ ...m, outcomes: explainOutcomes(m, src) }));
}

function explainOutcomes(m: ResolvedMarket, src: GradingSource): ExplainedOutcome[] {
  const fallback = (): ExplainedOutcome[] => m.outcomes.map((o) => ({ ...o, explanation: asSettled(o, src) }));
  if (src.result === null) {
    // No result was ever recorded: only the 48-hour rule settles such an event, refunding everything.
    if (!m.outcomes.every((o) => o.result === 'refund')) return fallback();
    const e = ruleExplanation(
      'refund_48h',
      'the event was postponed or suspended and not resumed within 48 hours: every market is refunded',
    );
    return m.outcomes.map((o) => ({ ...o, explanation: e }));
  }
  const codes = m.outcomes.map(
    (o) => o.code ?? (o.selection_id === null ? undefined : src.liveCodes.get(o.selection_id)),
  );
  if (codes.some((c) => c === undefined)) return fallback();
  const market: Market = {
    marketId: m.market_id ?? 0,
    key: m.key,
    name: m.name,
    outcomes: m.outcomes.map((o, i) => ({
      selectionId: o.selection_id ?? 0,
      code: codes[i] ?? '',
      label: o.label,
      odds: 1,
      teamSide: null,
      isLocked: false,
    })),
  };
  const { grade, explanations } = explainMarket(market, {
    sport: src.sport,
    result: src.result,
    playerStats: src.playerStats,
    policy: src.policy,
  });
  if (grade.status === 'pending') {
    // Player props still waiting for final statistics when the stats timeout ran out are refunded.
    if (!m.outcomes.every((o) => o.result === 'refund')) return fallback();
    const e = ruleExplanation(
      'stats_timeout',
      `final player statistics did not arrive within the stats timeout after the end: refunded (${grade.reason})`,
      src.result.revision,
    );
    return m.outcomes.map((o) => ({ ...o, explanation: e }));
  }
  if (explanations === null) return fallback();
  const grades = grade.status === 'graded' ? grade.outcomes : m.outcomes.map(() => ({ result: 'refund' as const }));
  if (!m.outcomes.every((o, i) => grades[i] !== undefined && sameGrade(o, grades[i]))) return fallback();
  return m.outcomes.map((o, i) => ({ ...o, explanation: explanations[i] ?? asSettled(o, src) }));
}

/**
 * Explained markets (JSON) of recent entries, by event, entry revision and odds format: explaining
 * regrades every market (about 15 µs each), and an entry's explanations change only with a new
 * revision (a batch, a correction). Bounded by the bytes it holds; the least recently used go first.
 */
export class ExplainedCache {
  private readonly entries = new Map<string, string>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  async get(key: string, make: () => Promise<string>): Promise<string> {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const json = await make();
    if (json.length > this.maxBytes / 4) return json;
    this.entries.set(key, json);
    this.bytes += json.length;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= v.length;
    }
    return json;
  }
}
