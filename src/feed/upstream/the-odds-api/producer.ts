// The Odds API (v4) as a feed producer: polls /odds and /scores per sport within the monthly credit budget, backs off on errors, emits only changes.
import type { FeedMessage } from '../../messages.js';
import type { FeedProducer, FeedSink, ProducerLogger } from '../producer.js';
import { monthOf, QuotaBudget, readQuotaHeaders, type QuotaHeaders } from './budget.js';
import { PROVIDER_MARKETS } from './markets.js';
import { readOddsEvents, readScoreEvents } from './provider-types.js';
import { EventTracker } from './tracker.js';

/** The adapter's settings (config.ts's UpstreamConfig, read from UPSTREAM_*). */
export interface TheOddsApiSettings {
  url: string;
  apiKey: string | null;
  /** The provider's sport keys (`soccer_epl`, `basketball_nba`). */
  sports: readonly string[];
  /** Bookmaker regions asked for (each region multiplies the cost of an /odds call). */
  regions: readonly string[];
  /** One bookmaker's key, or `consensus`: the median price across bookmakers. */
  bookmaker: string;
  /** Shortest time between two polls of one sport (the budget may space them further). */
  pollSeconds: number;
  /** Credits this service may spend per calendar month (UTC); never exceeded. */
  monthlyBudget: number;
}

export interface TheOddsApiOptions {
  settings: TheOddsApiSettings;
  sink: FeedSink;
  /** The injected clock: every plan (spacing, backoff, the month) reads it. */
  now: () => number;
  fetch?: typeof fetch;
  /** How often (real ms) the loop looks for a due poll; default 1000. */
  tickMs?: number;
  /** A call not answered within this (real ms) is a timeout; default 15000. */
  timeoutMs?: number;
  log?: ProducerLogger;
  /** Where the month's spend is kept across restarts and leaders; without it the count lives in memory only. */
  ledger?: SpendLedger;
}

/**
 * The month's spend as stored (the store, keyed by provider and UTC month `YYYY-MM`). `save`
 * resolves false when this node may not spend (a deposed pipeline leader): nothing is called then.
 */
export interface SpendLedger {
  load(month: string): Promise<number>;
  save(month: string, credits: number): Promise<boolean>;
}

export type UpstreamState = 'starting' | 'ok' | 'backing_off' | 'unauthorized' | 'budget_exhausted';

/** What /metrics and /v1/health report about the upstream. */
export interface UpstreamStatus {
  provider: 'the-odds-api';
  state: UpstreamState;
  /** Clock ms of the last answered call, or null. */
  lastSuccessAt: number | null;
  monthlyBudget: number;
  creditsSpentThisMonth: number;
  creditsLeft: number;
  /** The provider's x-requests-remaining / x-requests-used, as last seen. */
  providerRemaining: number | null;
  providerUsed: number | null;
  /** Calls made since start (answered or not). */
  calls: number;
  /** Failed calls in a row (0 when the last one was answered). */
  failures: number;
  /** Clock ms of the next planned poll (the earliest over sports). */
  nextPollAt: number | null;
}

/** A game within this of its start, or started, is polled at the budget's even pace; others less often. */
const SOON_MS = 60 * 60_000;
const DAY_MS = 24 * 60 * 60_000;
/** Spacing multipliers: nothing within a day, something within a day, something live or about to start. */
const FAR_FACTOR = 16;
const NEAR_FACTOR = 4;
/** /scores with daysFrom=1 (completed games of the last day) costs 2 credits. */
const SCORES_COST = 2;
const BACKOFF_BASE_MS = 5_000;
/** Ended games are forgotten after this (memory stays bounded over a season; /scores looks back one day). */
const PRUNE_AFTER_MS = 3 * DAY_MS;
const BACKOFF_MAX_MS = 15 * 60_000;

class UpstreamError extends Error {
  constructor(
    readonly kind: 'http' | 'timeout' | 'network' | 'unauthorized' | 'rate_limited' | 'bad_body' | 'store' | 'stopped',
    message: string,
    readonly retryAfterMs: number | null = null,
    readonly headers: QuotaHeaders | null = null,
  ) {
    super(message);
  }
}

export class TheOddsApiProducer implements FeedProducer {
  private readonly tracker: EventTracker;
  private readonly budget: QuotaBudget;
  private readonly nextAt = new Map<string, number>();
  private readonly fetchFn: typeof fetch;
  private state: UpstreamState = 'starting';
  private lastSuccessAt: number | null = null;
  private calls = 0;
  private failures = 0;
  private backoffUntil = 0;
  private running = false;
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<void> | null = null;
  private abort = new AbortController();
  private readonly reportedUnmapped = new Set<string>();
  /** Whether this run has read the stored spend (each start reads it again: another leader may have spent since). */
  private restored = false;

  constructor(private readonly opts: TheOddsApiOptions) {
    this.tracker = new EventTracker(opts.settings.bookmaker);
    this.budget = new QuotaBudget(opts.settings.monthlyBudget);
    this.fetchFn = opts.fetch ?? fetch;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.restored = false;
    this.abort = new AbortController();
    const loop = (): void => {
      // A throwing sink is a bug elsewhere: logged, and the loop goes on (an unhandled rejection would end the process).
      this.current = this.tick()
        .catch((err: unknown) => this.opts.log?.warn({ err }, 'upstream the-odds-api: a poll failed unexpectedly'))
        .finally(() => {
          this.current = null;
          if (this.running) this.timer = setTimeout(loop, this.opts.tickMs ?? 1000);
        });
    };
    loop();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.abort.abort();
    await this.current;
  }

  status(): UpstreamStatus {
    const now = this.opts.now();
    const next = [...this.nextAt.values()];
    return {
      provider: 'the-odds-api',
      state: this.state,
      lastSuccessAt: this.lastSuccessAt,
      monthlyBudget: this.budget.monthly,
      creditsSpentThisMonth: this.budget.spentThisMonth(now),
      creditsLeft: this.budget.left(now),
      providerRemaining: this.budget.providerRemaining,
      providerUsed: this.budget.providerUsed,
      calls: this.calls,
      failures: this.failures,
      nextPollAt: next.length === 0 ? null : Math.max(this.backoffUntil, Math.min(...next)),
    };
  }

  /** One look at the clock: polls every sport that is due (tests call it directly). */
  async tick(): Promise<void> {
    if (!(await this.restoreSpend())) return;
    for (const sport of this.opts.settings.sports) {
      if (this.abort.signal.aborted) return;
      const now = this.opts.now();
      if (now < this.backoffUntil || now < (this.nextAt.get(sport) ?? 0)) continue;
      await this.pollSport(sport);
      if (now < this.backoffUntil) break;
    }
  }

  private get oddsCost(): number {
    return PROVIDER_MARKETS.length * this.opts.settings.regions.length;
  }

  private async pollSport(sport: string): Promise<void> {
    const now = this.opts.now();
    if (!this.budget.allows(this.oddsCost, now)) {
      this.setState('budget_exhausted', { sport, left: this.budget.left(now) });
      this.nextAt.set(sport, this.budget.nextMonthAt(now));
      return;
    }
    try {
      const odds = readOddsEvents(await this.call(this.oddsUrl(sport), this.oddsCost));
      if (odds === null) throw new UpstreamError('bad_body', 'odds answer is not a list of events');
      await this.emit(this.tracker.fromOdds(odds));
      this.reportUnmapped();
      if (this.tracker.summary(sport, this.opts.now(), SOON_MS).started > 0) {
        if (this.budget.allows(SCORES_COST, this.opts.now())) {
          const scores = readScoreEvents(await this.call(this.scoresUrl(sport), SCORES_COST));
          if (scores === null) throw new UpstreamError('bad_body', 'scores answer is not a list of events');
          await this.emit(this.tracker.fromScores(scores, this.opts.now()));
        } else {
          this.setState('budget_exhausted', { sport, left: this.budget.left(this.opts.now()) });
        }
      }
      const after = this.opts.now();
      this.tracker.prune(after - PRUNE_AFTER_MS);
      if (!this.budget.allows(this.oddsCost, after)) {
        this.setState('budget_exhausted', { sport, left: this.budget.left(after) });
        this.nextAt.set(sport, this.budget.nextMonthAt(after));
      } else {
        // A new month brings a new budget: never plan past its start.
        this.nextAt.set(sport, Math.min(after + this.spacingMs(sport), this.budget.nextMonthAt(after)));
      }
    } catch (err) {
      if (!(err instanceof UpstreamError)) {
        // The sink failed (a bug elsewhere): what it was given may be lost, so the next poll sends
        // everything again (the same ids: idempotent), and it waits its normal turn (credits).
        this.tracker.reset();
        this.nextAt.set(sport, this.opts.now() + this.spacingMs(sport));
        throw err;
      }
      this.failed(err, sport);
    }
  }

  /** How long until this sport's next poll: the budget's even pace, stretched for sports with nothing close. */
  private spacingMs(sport: string): number {
    const now = this.opts.now();
    const s = this.tracker.summary(sport, now, SOON_MS);
    const cycle = this.oddsCost + (s.started > 0 ? SCORES_COST : 0);
    const base = Math.max(
      this.opts.settings.pollSeconds * 1000,
      this.budget.evenSpacingMs(cycle, this.opts.settings.sports.length, now),
    );
    if (s.hot > 0) return base;
    const stretched = base * (s.nextStartAt !== null && s.nextStartAt - now < DAY_MS ? NEAR_FACTOR : FAR_FACTOR);
    // Never sleep through the hour before a kick-off.
    const untilSoon = s.nextStartAt === null ? stretched : s.nextStartAt - SOON_MS - now;
    return Math.max(base, Math.min(stretched, untilSoon));
  }

  private oddsUrl(sport: string): string {
    const { url, apiKey, regions } = this.opts.settings;
    const q = new URLSearchParams({
      apiKey: apiKey ?? '',
      regions: regions.join(','),
      markets: PROVIDER_MARKETS.join(','),
      oddsFormat: 'decimal',
      dateFormat: 'iso',
    });
    return `${url}/v4/sports/${encodeURIComponent(sport)}/odds?${q.toString()}`;
  }

  private scoresUrl(sport: string): string {
    const { url, apiKey } = this.opts.settings;
    const q = new URLSearchParams({ apiKey: apiKey ?? '', daysFrom: '1', dateFormat: 'iso' });
    return `${url}/v4/sports/${encodeURIComponent(sport)}/scores?${q.toString()}`;
  }

  /** Reads the month's stored spend once per start; false (no poll this tick) while the store cannot say. */
  private async restoreSpend(): Promise<boolean> {
    const ledger = this.opts.ledger;
    if (this.restored || ledger === undefined) return true;
    const now = this.opts.now();
    const month = monthOf(now);
    try {
      this.budget.restore(month, await ledger.load(month), now);
    } catch (err) {
      // Polling blind could spend the budget twice: wait for the store (logged once, as a state).
      this.setState('backing_off', { reason: `store: the month's spend could not be read (${String(err)})` });
      return false;
    }
    this.restored = true;
    return true;
  }

  /**
   * Stores the month's spend with this call's cost added before the call is made: a crash or a
   * failover right after it never leaves a spend the store does not know of (at worst the store
   * over-counts one call's estimate, corrected by the write after the answer).
   */
  private async reserve(cost: number): Promise<void> {
    const ledger = this.opts.ledger;
    if (ledger === undefined) return;
    const now = this.opts.now();
    let allowed: boolean;
    try {
      allowed = await ledger.save(monthOf(now), this.budget.spentThisMonth(now) + cost);
    } catch (err) {
      throw new UpstreamError('store', `the month's spend could not be stored (${String(err)})`);
    }
    if (!allowed) throw new UpstreamError('stopped', 'no longer leading');
  }

  /** Counts a call's charge and stores the exact figure (best effort: the reservation already covers it). */
  private async spent(charged: number, headers: QuotaHeaders | null): Promise<void> {
    const now = this.opts.now();
    this.budget.record(charged, headers, now);
    await this.opts.ledger?.save(monthOf(now), this.budget.spentThisMonth(now)).catch(() => false);
  }

  private async call(url: string, cost: number): Promise<unknown> {
    await this.reserve(cost);
    this.calls++;
    const signal = AbortSignal.any([this.abort.signal, AbortSignal.timeout(this.opts.timeoutMs ?? 15_000)]);
    let res: Response;
    try {
      res = await this.fetchFn(url, { signal, headers: { accept: 'application/json' } });
    } catch (err) {
      // stop() aborted it: not an upstream fault, nothing to log or count.
      if (this.abort.signal.aborted) throw new UpstreamError('stopped', 'stopped');
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      // An unanswered call may still have been charged: count it, so the budget is never exceeded.
      await this.spent(cost, null);
      throw new UpstreamError(timedOut ? 'timeout' : 'network', timedOut ? 'no answer in time' : String(err));
    }
    const headers = readQuotaHeaders((n) => res.headers.get(n));
    const text = await res.text().catch(() => '');
    if (!res.ok) {
      // Refused calls cost nothing unless the provider says otherwise.
      await this.spent(0, headers.last === null ? null : headers);
      if (headers.remaining !== null) this.budget.providerRemaining = headers.remaining;
      const retryAfter = Number(res.headers.get('retry-after'));
      const kind =
        res.status === 401 || res.status === 403 ? 'unauthorized' : res.status === 429 ? 'rate_limited' : 'http';
      throw new UpstreamError(
        kind,
        `HTTP ${res.status}`,
        Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : null,
        headers,
      );
    }
    await this.spent(cost, headers);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new UpstreamError('bad_body', 'answer is not JSON');
    }
    this.failures = 0;
    this.lastSuccessAt = this.opts.now();
    this.setState('ok', {});
    return body;
  }

  private failed(err: UpstreamError, sport: string): void {
    if (err.kind === 'stopped') return;
    this.failures++;
    const backoff = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (this.failures - 1));
    const wait = err.kind === 'unauthorized' ? BACKOFF_MAX_MS : Math.max(backoff, err.retryAfterMs ?? 0);
    this.backoffUntil = this.opts.now() + wait;
    this.nextAt.set(sport, this.backoffUntil);
    // 0 credits left at the provider: nothing more this period (our month) unless its answer changes.
    if (err.headers?.remaining === 0) {
      this.setState('budget_exhausted', { sport, reason: err.message });
      return;
    }
    this.setState(err.kind === 'unauthorized' ? 'unauthorized' : 'backing_off', {
      sport,
      reason: `${err.kind}: ${err.message}`,
      retryInMs: wait,
    });
  }

  /** Logged once per change of state, never once per call: a dead upstream is one line, not thousands. */
  private setState(state: UpstreamState, detail: object): void {
    if (state === this.state) return;
    const was = this.state;
    this.state = state;
    if (state === 'ok') this.opts.log?.info({ was }, 'upstream the-odds-api answering');
    else
      this.opts.log?.warn({ was, state, ...detail }, 'upstream the-odds-api not answering: serving the last good data');
  }

  private reportUnmapped(): void {
    for (const key of this.tracker.unmapped) {
      if (this.reportedUnmapped.has(key)) continue;
      this.reportedUnmapped.add(key);
      this.opts.log?.warn({ sport: key }, 'upstream sport key has no sport of ours: its events are skipped');
    }
  }

  private async emit(messages: FeedMessage[]): Promise<void> {
    if (messages.length > 0) await this.opts.sink(messages);
  }
}
