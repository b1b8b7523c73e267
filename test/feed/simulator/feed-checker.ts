// Test helper: replays simulator messages against the feed contract and the pipeline's rules, collecting every violation.
import { checkResult, checkStatusMove, isTerminal } from '../../../src/domain/lifecycle.js';
import type { EventStatus, FinalStatus } from '../../../src/domain/types.js';
import { validateFeedMessage, type FeedMessage, type ScoreMessage } from '../../../src/feed/messages.js';

/** sport_data fields interface.md's sport table requires, by sport. */
export const REQUIRED_SPORT_DATA: Readonly<Record<string, readonly string[]>> = {
  soccer: ['period'],
  basketball: ['period'],
  tennis: ['home_serving', 'away_serving', 'home_game_score', 'away_game_score', 'is_tiebreak'],
  volleyball: ['home_serving', 'away_serving', 'home_game_score', 'away_game_score', 'is_tiebreak'],
  table_tennis: ['home_serving', 'away_serving'],
  ice_hockey: ['home_suspend', 'away_suspend'],
  american_football: ['period', 'down_and_distance'],
  baseball: ['period', 'bases', 'outs'],
  cs2: ['current_map', 'map_score', 'round_score'],
  valorant: ['current_map', 'map_score', 'round_score'],
  dota2: ['current_game', 'game_duration'],
  lol: ['current_game', 'game_duration'],
  cricket: ['run_rate', 'target'],
  handball: ['period'],
  rugby: ['period', 'try_count'],
  darts: ['current_set', 'current_leg'],
  snooker: ['current_frame', 'frame_score'],
  mma: ['current_round'],
  boxing: ['current_round'],
};

/** How the score relates to the period scores. */
const SUMMED = new Set([
  'soccer',
  'basketball',
  'ice_hockey',
  'american_football',
  'baseball',
  'cricket',
  'handball',
  'rugby',
  'dota2',
  'lol',
]);
const UNITS = new Set(['tennis', 'volleyball', 'table_tennis', 'darts', 'snooker', 'cs2', 'valorant']);
/** Period rows that are not part of the score (shoot-outs). */
const OUTSIDE_SCORE = new Set(['PEN', 'SO']);

const VALUE_RULES: Readonly<Record<string, (d: Record<string, unknown>) => boolean>> = {
  soccer: (d) => ['1H', '2H', 'HT', 'ET', 'PEN'].includes(String(d.period)),
  basketball: (d) => /^(Q[1-4]|OT[1-3])$/.test(String(d.period)),
  tennis: (d) =>
    typeof d.home_serving === 'boolean' &&
    typeof d.is_tiebreak === 'boolean' &&
    (d.is_tiebreak === true || ['0', '15', '30', '40', 'AD'].includes(String(d.home_game_score))),
};

export interface MarketState {
  key: string;
  eventId: string;
  selections: number[];
}

export interface SelectionState {
  marketId: number;
  code: string;
  odds: number;
  locked: boolean;
}

interface EventState {
  sport: string;
  tier: number;
  status: EventStatus;
  score: { home: number; away: number } | null;
  removedAll: boolean;
  markets: Set<number>;
}

const STATS_STATUSES = new Set(['live', 'suspended', 'interrupted', 'ended', 'retired', 'abandoned']);

export class FeedChecker {
  readonly errors: string[] = [];
  /** The simulator's maximum price (a selection taken off at it may be repriced while locked). */
  maxOdds = 1000;
  readonly events = new Map<string, EventState>();
  readonly markets = new Map<number, MarketState>();
  readonly selections = new Map<number, SelectionState>();
  readonly counts = new Map<string, number>();
  private lastTs = -Infinity;

  private fail(m: FeedMessage, why: string): void {
    if (this.errors.length < 50) this.errors.push(`${m.type} ${'event_id' in m ? m.event_id : ''}: ${why}`);
  }

  apply(messages: readonly FeedMessage[]): void {
    for (const m of messages) this.one(m);
  }

  one(m: FeedMessage): void {
    this.counts.set(m.type, (this.counts.get(m.type) ?? 0) + 1);
    const v = validateFeedMessage(JSON.parse(JSON.stringify(m)) as unknown);
    if (!v.ok) return this.fail(m, `invalid: ${v.message}`);
    if (m.ts !== undefined) {
      const ts = Date.parse(m.ts);
      if (ts < this.lastTs) this.fail(m, `ts goes back in time (${m.ts})`);
      this.lastTs = ts;
    }
    if (m.type === 'tournament' || m.type === 'outright_market' || m.type === 'outright_result') return;
    const e = this.events.get(m.event_id);
    if (m.type === 'fixture') {
      if (e === undefined)
        this.events.set(m.event_id, {
          sport: m.sport,
          tier: m.league.tier ?? 3,
          status: 'prematch',
          score: null,
          removedAll: false,
          markets: new Set(),
        });
      else if (isTerminal(e.status)) this.fail(m, `fixture for a final event (${e.status})`);
      return;
    }
    if (e === undefined) return this.fail(m, 'unknown event');
    switch (m.type) {
      case 'markets':
        if (isTerminal(e.status)) return this.fail(m, `markets for a final event (${e.status})`);
        // A book withdrawn whole near the end is offered again when the end is averted.
        e.removedAll = false;
        for (const market of m.markets) {
          const known = this.markets.get(market.market_id);
          if (known !== undefined && (known.eventId !== m.event_id || known.key !== market.key))
            this.fail(m, `market id ${market.market_id} reused`);
          this.markets.set(market.market_id, {
            key: market.key,
            eventId: m.event_id,
            selections: market.outcomes.map((o) => o.selection_id),
          });
          e.markets.add(market.market_id);
          for (const o of market.outcomes) {
            const s = this.selections.get(o.selection_id);
            if (s !== undefined && s.marketId !== market.market_id)
              this.fail(m, `selection id ${o.selection_id} reused`);
            this.selections.set(o.selection_id, {
              marketId: market.market_id,
              code: o.code,
              odds: o.odds,
              locked: o.is_locked ?? false,
            });
          }
        }
        return;
      case 'odds':
        if (isTerminal(e.status)) return this.fail(m, `odds for a final event (${e.status})`);
        if (e.removedAll) return this.fail(m, 'odds after all markets were removed');
        for (const c of m.changes) {
          const s = this.selections.get(c.selection_id);
          if (s === undefined || this.markets.get(s.marketId)?.eventId !== m.event_id)
            return this.fail(m, `unknown selection ${c.selection_id}`);
          if (c.odds !== undefined) {
            if (c.odds < 1.01) this.fail(m, `odds ${c.odds} below 1.01`);
            // A locked selection keeps its last odds under a lock (goal, break); one the state took off
            // (impossible, at a price bound) shows the state's price: only a price inside the bounds
            // changing under a lock is a fault.
            if (s.locked && c.is_locked !== false && c.odds > 1.01 && c.odds < this.maxOdds)
              this.fail(m, `price of locked selection ${c.selection_id} changed`);
            s.odds = c.odds;
          }
          if (c.is_locked !== undefined) s.locked = c.is_locked;
        }
        return;
      case 'remove_markets':
        if (isTerminal(e.status)) return this.fail(m, 'remove_markets for a final event');
        if (m.all === true) e.removedAll = true;
        // Withdrawn markets are no longer offered: their selections leave the open book.
        for (const id of m.all === true ? [...e.markets] : (m.market_ids ?? [])) {
          for (const sel of this.markets.get(id)?.selections ?? []) this.selections.delete(sel);
          this.markets.delete(id);
          e.markets.delete(id);
        }
        return;
      case 'status': {
        const r = checkStatusMove(e.status, m.status);
        if (!r.ok) return this.fail(m, r.reason);
        e.status = m.status;
        return;
      }
      case 'score':
        return this.score(e, m);
      case 'result': {
        const r = checkResult(e.status, m.status as FinalStatus);
        if (!r.ok) return this.fail(m, r.reason);
        if (m.status === 'ended' && e.score !== null && (m.score.home < e.score.home || m.score.away < e.score.away))
          this.fail(m, 'final score below the live score');
        if (m.status === 'ended') this.consistent(e.sport, m, m.score, m.period_scores ?? [], true);
        e.status = m.status as EventStatus;
        return;
      }
      case 'stats':
        if (!STATS_STATUSES.has(e.status)) this.fail(m, `stats while ${e.status}`);
        return;
    }
  }

  private score(e: EventState, m: ScoreMessage): void {
    if (!['live', 'suspended', 'interrupted'].includes(e.status)) return this.fail(m, `score while ${e.status}`);
    if (e.score !== null && (m.score.home < e.score.home || m.score.away < e.score.away)) {
      this.fail(m, `score went down ${JSON.stringify(e.score)} → ${JSON.stringify(m.score)}`);
    }
    e.score = m.score;
    const data = m.sport_data;
    if (data === null || data === undefined) return this.fail(m, 'no sport_data');
    for (const field of REQUIRED_SPORT_DATA[e.sport] ?? [])
      if (!(field in data)) this.fail(m, `sport_data lacks ${field}`);
    const rule = VALUE_RULES[e.sport];
    if (rule !== undefined && !rule(data)) this.fail(m, `sport_data values ${JSON.stringify(data)}`);
    if (m.scoreboard === null || m.scoreboard === undefined) this.fail(m, 'no scoreboard');
    this.consistent(e.sport, m, m.score, m.period_scores ?? [], false);
  }

  private consistent(
    sport: string,
    m: FeedMessage,
    score: { home: number; away: number },
    ps: ReadonlyArray<{ period: string; home: number; away: number }>,
    final: boolean,
  ): void {
    if (SUMMED.has(sport)) {
      const h = ps.filter((p) => !OUTSIDE_SCORE.has(p.period)).reduce((s, p) => s + p.home, 0);
      const a = ps.filter((p) => !OUTSIDE_SCORE.has(p.period)).reduce((s, p) => s + p.away, 0);
      if (h !== score.home || a !== score.away)
        this.fail(m, `period scores ${h}-${a} do not add up to ${score.home}-${score.away}`);
    } else if (UNITS.has(sport)) {
      const done = final ? ps : ps.slice(0, -1);
      const minH = done.filter((p) => p.home > p.away).length;
      const minA = done.filter((p) => p.away > p.home).length;
      const maxH = ps.filter((p) => p.home > p.away).length;
      const maxA = ps.filter((p) => p.away > p.home).length;
      if (score.home < minH || score.home > maxH || score.away < minA || score.away > maxA)
        this.fail(m, `units won ${score.home}-${score.away} do not match ${JSON.stringify(ps)}`);
    } else if (score.home + score.away > 1)
      this.fail(m, `a fight score is 1-0, 0-1 or 0-0, got ${score.home}-${score.away}`);
  }

  /** Markets of an event whose outcomes are all open now, with their summed implied probability. */
  openMarketSums(eventId: string): Array<{ key: string; sum: number; outcomes: number }> {
    const e = this.events.get(eventId);
    if (e === undefined) return [];
    const out: Array<{ key: string; sum: number; outcomes: number }> = [];
    for (const id of e.markets) {
      const market = this.markets.get(id)!;
      const sels = market.selections.map((s) => this.selections.get(s)!);
      if (sels.some((s) => s.locked)) continue;
      out.push({ key: market.key, sum: sels.reduce((s, x) => s + 1 / x.odds, 0), outcomes: sels.length });
    }
    return out;
  }
}
