// The settlement engine: grades every market of a finished event in committed batches, resumable and idempotent.
import { ServiceError } from '../../domain/errors.js';
import { isTerminal } from '../../domain/lifecycle.js';
import type { EventResult, Market, SportEvent } from '../../domain/types.js';
import type { LogEntryInput } from '../../live/change-log.js';
import { settlementEntry } from '../../live/log-entries.js';
import type { ReadModel } from '../../live/read-model.js';
import type { MarketBook } from '../../live/market-book.js';
import type { SettlementIndex } from '../../live/settlement-index.js';
import type { SettlementHeader, SettlementRecord, Store } from '../../store/store.js';
import type { GradeContext, Grader, MarketGrading } from './grade.js';
import { phaseOf } from './phases.js';
import { parseResolved, resolvedInFormat, type ResolvedMarket } from '../../domain/resolved-market.js';

export interface SettlementLogger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface SettlementEngineOptions {
  store: Store;
  readModel: ReadModel;
  index: SettlementIndex;
  grade: Grader;
  /** World time. */
  now: () => number;
  log: SettlementLogger;
  /** The archived result of an event (memory first, then the store). */
  resultOf: (eventId: string) => Promise<EventResult | null>;
  /** Markets committed per batch: the entry's counts move batch by batch. */
  batchSize: number;
  /** Postponed or suspended events not resumed within this long (per sport) are refunded. */
  voidAfterMs: (sport: string) => number;
  /** Entries leave the feed after this long. */
  feedRetentionMs: number;
  /** Player props still without final statistics this long after the end are refunded. */
  statsTimeoutMs: number;
  /**
   * Appends a settlement entry to the change log (default: at once). A publishing leader appends
   * between feed batches (Pipeline.exclusive), so every batch's entries stay together in its log.
   */
  appendEntry?: (entry: LogEntryInput) => unknown;
}

const DISRUPTED = new Set(['postponed', 'suspended']);

const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class SettlementEngine {
  private readonly queue = new Set<string>();
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  /** Markets of finished events still waiting to be graded (metrics). */
  backlog = 0;
  /** Events the store refused to settle, and the timer that queues them again. */
  private readonly retrying = new Set<string>();
  private retryTimer: NodeJS.Timeout | null = null;
  private storeFailing = false;

  constructor(private readonly opts: SettlementEngineOptions) {}

  /** Loads the counters, subscribes to results and stats, and resumes unfinished settlement. */
  async start(): Promise<void> {
    const { store, index, now, feedRetentionMs, readModel } = this.opts;
    for (const s of await store.settlementSummaries(now() - feedRetentionMs)) {
      index.upsert(s.eventId, s.endedAt, s.pendingCount);
    }
    // Settlement follows the change log: a result (or final statistics) queues its event.
    this.unsubscribe = readModel.log.subscribe((c) => {
      if (c.kind === 'result' || c.kind === 'stats') this.enqueue(c.eventId);
    });
    // After a restart (even kill -9) every finished event is looked at again; settled ones are skipped.
    for (const le of readModel.all()) if (isTerminal(le.event.status)) this.enqueue(le.event.id);
    this.timer = setInterval(() => void this.housekeeping(), 60_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    if (this.timer) clearInterval(this.timer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.retrying.clear();
    this.queue.clear();
    await this.running;
  }

  /** Settles the event again in a second (the store refused it). */
  private retryLater(eventId: string): void {
    this.retrying.add(eventId);
    if (this.retryTimer !== null) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      const ids = [...this.retrying];
      this.retrying.clear();
      for (const id of ids) this.enqueue(id);
    }, 1000);
    this.retryTimer.unref();
  }

  private async append(entry: LogEntryInput): Promise<void> {
    if (this.opts.appendEntry !== undefined) await this.opts.appendEntry(entry);
    else this.opts.readModel.log.append(entry);
  }

  enqueue(eventId: string): void {
    this.queue.add(eventId);
    if (this.running === null) this.running = this.drain().finally(() => (this.running = null));
  }

  /** Resolves when everything queued so far is settled (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running !== null) await this.running;
  }

  /** The 48-hour rule and the feed's retention window. */
  async housekeeping(): Promise<void> {
    const { readModel, now, voidAfterMs, index, store, feedRetentionMs } = this.opts;
    const t = now();
    for (const le of readModel.all()) {
      const e = le.event;
      if (DISRUPTED.has(e.status) && t - e.statusChangedAt >= voidAfterMs(e.sport) && !index.has(e.id)) {
        this.enqueue(e.id);
      }
      // Ended events whose player props still wait: the stats timeout may have run out.
      if (
        e.status === 'ended' &&
        e.endedAt !== null &&
        t - e.endedAt >= this.opts.statsTimeoutMs &&
        index.pending(e.id)
      ) {
        this.enqueue(e.id);
      }
    }
    const cutoff = t - feedRetentionMs;
    const removed = await store.deleteSettlementsBefore(cutoff).catch(() => 0);
    if (removed > 0) for (const id of index.idsEndedBefore(cutoff)) index.delete(id);
  }

  private async drain(): Promise<void> {
    while (this.queue.size > 0) {
      const [eventId] = this.queue;
      if (eventId === undefined) break;
      this.queue.delete(eventId);
      try {
        await this.settle(eventId);
        this.storeFailing = false;
      } catch (err) {
        if (err instanceof ServiceError && err.code === 'service_unavailable') {
          // The store failed (datastore down, disk full): no change may come to retry it, so it
          // is retried every second until the store takes it. Logged once per outage.
          if (!this.storeFailing)
            this.opts.log.warn({ err, eventId }, 'settlement waits for the store; retrying every second');
          this.storeFailing = true;
          this.retryLater(eventId);
        } else this.opts.log.error({ err, eventId }, 'settlement failed; will retry on the next change');
      }
    }
  }

  private async settle(eventId: string): Promise<void> {
    const { readModel, store } = this.opts;
    const le = readModel.get(eventId);
    if (le === undefined) return;
    const event = le.event;
    const markets = le.book.markets();
    let result = await this.opts.resultOf(eventId);
    if (result === null) {
      // Not finished: only the 48-hour rule settles it, refunding every market.
      if (
        !DISRUPTED.has(event.status) ||
        this.opts.now() - event.statusChangedAt < this.opts.voidAfterMs(event.sport)
      ) {
        return;
      }
      result = {
        eventId,
        status: 'cancelled',
        score: event.score,
        periodScores: event.periodScores,
        winner: null,
        endedAt: event.statusChangedAt + this.opts.voidAfterMs(event.sport),
        revision: 0,
        recordedAt: this.opts.now(),
      };
    }
    const existing = await store.getSettlement(eventId);
    const correction = existing !== null && existing.header.resultRevision !== result.revision;
    const resolved = new Map<number | string, ResolvedMarket>();
    if (existing !== null && !correction) {
      // resolvedInFormat gives markets resolved before prices were kept their (null) price fields,
      // so an entry's list is either all old or all new (the feed serves a new list as stored).
      for (const m of resolvedInFormat(parseResolved(existing.marketsJson), 'decimal'))
        resolved.set(m.market_id ?? m.key, m);
    }
    const header = headerOf(event, result);
    const ctx: GradeContext = { sport: event.sport, result, playerStats: event.playerStats };

    // Phase by phase, batch by batch: each batch commits before the next is graded.
    const todo = markets
      .map((m, position) => ({ m, position, phase: phaseOf(m.key) }))
      .filter(({ m }) => !resolved.has(m.marketId))
      .sort((a, b) => a.phase - b.phase || a.position - b.position);
    let revision = existing?.revision ?? 0;
    let changed = correction || (existing !== null && !sameHeader(existing.header, header));
    // A correction re-grades everything and commits once: the entry never shrinks on the way.
    const batchSize = correction ? Number.POSITIVE_INFINITY : this.opts.batchSize;
    let pendingBatch = 0;
    /** Markets resolved since the last commit: what the stream's `settlement` event lists. */
    let justResolved: ResolvedMarket[] = [];
    const commit = async (): Promise<void> => {
      const pending = markets.length - resolved.size;
      if (resolved.size === 0) return; // an entry appears with its first resolved market
      revision++;
      const record: SettlementRecord = {
        eventId,
        endedAt: result.endedAt,
        updatedAt: this.opts.now(),
        revision,
        resolvedCount: resolved.size,
        totalCount: markets.length,
        pendingCount: pending,
        header,
        marketsJson: JSON.stringify(ordered(markets, resolved)),
      };
      await store.saveSettlement(record);
      this.opts.index.upsert(eventId, record.endedAt, pending);
      await this.append(
        settlementEntry(event, {
          revision,
          resolvedCount: resolved.size,
          totalCount: markets.length,
          pendingCount: pending,
          correction,
          resolved: justResolved,
          updatedAt: record.updatedAt,
        }),
      );
      justResolved = [];
      changed = false;
      pendingBatch = 0;
      await yieldToLoop();
    };

    let stillPending = 0;
    for (const { m } of todo) {
      const grading = this.gradeOne(m, ctx, event);
      if (grading.status === 'pending') {
        stillPending++;
        continue;
      }
      const r = toResolved(m, grading, le.book);
      resolved.set(m.marketId, r);
      justResolved.push(r);
      changed = true;
      pendingBatch++;
      if (pendingBatch >= batchSize) await commit();
    }
    if (changed) await commit();
    this.backlog = stillPending;
  }

  private gradeOne(m: Market, ctx: GradeContext, event: SportEvent): Exclude<MarketGrading, { status: 'ungradeable' }> {
    // The catalog applies the void rules itself (cancelled, walkover, abandoned, retired: decided
    // markets stand, the rest is refunded).
    const grading = this.opts.grade(m, ctx);
    if (grading.status === 'ungradeable') {
      this.opts.log.warn(
        { eventId: event.id, key: m.key, reason: grading.reason },
        'market cannot be graded: refunded',
      );
      return refundAll(m);
    }
    // Player props wait for final statistics, but not forever: past the limit they are refunded.
    if (grading.status === 'pending' && this.opts.now() - ctx.result.endedAt >= this.opts.statsTimeoutMs) {
      return refundAll(m);
    }
    return grading;
  }
}

function refundAll(m: Market): Extract<MarketGrading, { status: 'graded' }> {
  return { status: 'graded', outcomes: m.outcomes.map(() => ({ result: 'refund' as const })) };
}

/** The book knows each selection's opening and closing price (market copies carry current prices only). */
function toResolved(
  m: Market,
  grading: Extract<MarketGrading, { status: 'graded' }>,
  book: MarketBook,
): ResolvedMarket {
  return {
    key: m.key,
    name: m.name,
    market_id: m.marketId,
    outcomes: m.outcomes.map((o, i) => {
      const g = grading.outcomes[i] ?? { result: 'refund' as const };
      return {
        label: o.label,
        result: g.result,
        selection_id: o.selectionId,
        // What the live book knew, so that an entry read after the event left memory answers as
        // the book did (a bet check by code, by side, without odds); the code is also what grading
        // read, so explanations regrade from it after the event has left memory.
        code: o.code,
        team_side: o.teamSide,
        // The prices a bettor measures closing-line value by (the book keeps them; decimal here).
        opening_odds: price(book, o.selectionId, 'opening') ?? o.odds,
        closing_odds: price(book, o.selectionId, 'closing'),
        last_odds: o.odds,
        ...(g.voidFactor !== undefined ? { void_factor: g.voidFactor } : {}),
      };
    }),
  };
}

function price(book: MarketBook, selectionId: number, which: 'opening' | 'closing'): number | null {
  const i = book.indexOfSelection(selectionId);
  if (i < 0) return null;
  return which === 'opening' ? book.openingOdds(i) : book.closingOdds(i);
}

/** Resolved markets in the event's market order. */
function ordered(markets: Market[], resolved: Map<number | string, ResolvedMarket>): ResolvedMarket[] {
  const out: ResolvedMarket[] = [];
  const seen = new Set<ResolvedMarket>();
  for (const m of markets) {
    const r = resolved.get(m.marketId);
    if (r !== undefined) {
      out.push(r);
      seen.add(r);
    }
  }
  for (const r of resolved.values()) if (!seen.has(r)) out.push(r);
  return out;
}

function headerOf(e: SportEvent, result: EventResult): SettlementHeader {
  return {
    homeTeam: e.homeTeam,
    awayTeam: e.awayTeam,
    homeLogoId: e.homeLogoId,
    awayLogoId: e.awayLogoId,
    finalScore: { home: result.score.home, away: result.score.away },
    sport: e.sport,
    league: e.league.name,
    country: e.league.country,
    startTime: e.startTime,
    resultRevision: result.revision,
  };
}

function sameHeader(a: SettlementHeader, b: SettlementHeader): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
