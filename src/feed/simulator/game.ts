// One simulated event from fixture to final stats: kick-off, engine steps, locks, pricing, disruptions and its messages.
import { isTerminal } from '../../domain/lifecycle.js';
import type { TeamSide } from '../../domain/types.js';
import type { FeedMessage, FixtureMessage } from '../messages.js';
import { Book, layoutOf, type BookLayout } from './book.js';
import { LiveLines } from './live-lines.js';
import { driftAt, nextDriftAt, tiltMarkets } from './drift.js';
import type { SimConfig } from './config.js';
import { createEngine } from './engines/registry.js';
import type { MarketDepth, MatchEngine, Snapshot } from './engines/types.js';
import { eventIdOf } from './ids.js';
import { Rng } from './rng.js';
import type { SimLeague, SimTeam } from './world.js';

export interface FixturePlan {
  eventNum: number;
  league: SimLeague;
  home: SimTeam;
  away: SimTeam;
  startTime: number;
  /**
   * When the world publishes the fixture (its league's generation instant for the day): a fixed
   * point of the plan, so that what happens before kick-off does not depend on when a run started.
   */
  publishAt: number;
}

/** What, if anything, goes wrong with this fixture; drawn once from the plan's own random stream. */
export type Disruption =
  | { kind: 'none' }
  | { kind: 'cancelled'; beforeStartMs: number }
  | { kind: 'walkover'; beforeStartMs: number; winner: TeamSide }
  | { kind: 'delayed'; delayMs: number }
  | { kind: 'postponed'; resumeAfterMs: number | null }
  | { kind: 'abandoned'; afterMs: number }
  | { kind: 'retired'; afterMs: number; retiring: TeamSide }
  | { kind: 'interrupted'; afterMs: number; forMs: number };

const IN_PLAY = new Set(['live', 'suspended', 'interrupted']);
const INDIVIDUAL = new Set(['tennis', 'table_tennis', 'darts', 'snooker', 'mma', 'boxing']);
const HOUR = 3_600_000;
const MINUTE = 60_000;
/** A break (set, quarter, half time) locks the book this long, then it reopens repriced for the break's state. */
export const BREAK_LOCK_MS = 30_000;

/**
 * The lock at the start of a break of `breakMs`: the period's markets close and the next ones are
 * set, which takes seconds. A long break (half time) locks BREAK_LOCK_MS; a short one a tenth of
 * itself (at least 5 s): the minute between boxing rounds or table tennis games is when their books
 * trade most, and a 30 s lock at each left 12% of a boxing match with nothing open.
 */
export function breakLockMs(breakMs: number): number {
  return Math.min(BREAK_LOCK_MS, Math.max(5_000, Math.round(breakMs / 10)));
}

export function planDisruption(rng: Rng, plan: FixturePlan, config: SimConfig, expectedMs: number): Disruption {
  const r = config.disruptions;
  const sport = plan.league.sport;
  let x = rng.next();
  const take = (p: number): boolean => {
    if (x < p) return true;
    x -= p;
    return false;
  };
  if (take(r.cancelled)) return { kind: 'cancelled', beforeStartMs: rng.int(10, 180) * MINUTE };
  if (INDIVIDUAL.has(sport) && take(r.walkover)) {
    return { kind: 'walkover', beforeStartMs: rng.int(5, 120) * MINUTE, winner: rng.chance(0.5) ? 'home' : 'away' };
  }
  if (take(r.postponed)) {
    return { kind: 'postponed', resumeAfterMs: rng.chance(r.postponedResumeShare) ? rng.int(2, 40) * HOUR : null };
  }
  if (take(r.delayed)) return { kind: 'delayed', delayMs: rng.int(5, 30) * MINUTE };
  if (sport === 'tennis' && take(r.retired)) {
    return {
      kind: 'retired',
      afterMs: Math.round(expectedMs * rng.uniform(0.1, 0.8)),
      retiring: rng.chance(0.5) ? 'home' : 'away',
    };
  }
  if (take(r.abandoned)) return { kind: 'abandoned', afterMs: Math.round(expectedMs * rng.uniform(0.2, 0.8)) };
  if (take(r.interrupted)) {
    return {
      kind: 'interrupted',
      afterMs: Math.round(expectedMs * rng.uniform(0.1, 0.7)),
      forMs: rng.int(5, 40) * MINUTE,
    };
  }
  return { kind: 'none' };
}

type Phase = 'prematch' | 'delayed' | 'postponed' | 'live' | 'interrupted' | 'ended' | 'done';

export interface GameOptions {
  seed: number;
  config: SimConfig;
  /** Shortest simulated interval between price updates. */
  repriceMs: number;
  /** A live game with nothing sent for this long (simulated ms) sends its score again; 0 or absent: never. */
  keepAliveMs?: number;
  /**
   * While the clock runs between an engine's steps (`MatchEngine.clockRunning`) and the book is
   * open, it is repriced this often (simulated ms) for the time gone by; 0 or absent: at steps only.
   */
  tickMs?: number;
}

const iso = (ms: number): string => new Date(ms).toISOString();

export class SimGame {
  readonly eventId: string;
  readonly engine: MatchEngine;
  readonly disruption: Disruption;
  private readonly book: Book;
  private readonly liveLines = new LiveLines();
  /** The whole book's layout once in play (live lines need it at every publish). */
  private liveLayout: BookLayout | undefined;
  private phase: Phase = 'prematch';
  private depth: MarketDepth = 'main';
  private kickoffAt: number;
  private deepenAt: number | null;
  /** The next prematch move of the book (drift.ts); null once none is left before kick-off. */
  private driftAt: number | null;
  private stepAt: number | null = null;
  /** When the engine last stepped (shifted by an interruption): the clock has run since then. */
  private lastStepAt = 0;
  private pausedUntil: number | null = null;
  private lockedUntil = 0;
  private finalLock = false;
  private locked = true;
  private wasInBreak = false;
  private lastPricedAt = -Infinity;
  private lastScoreKey = '';
  private lastScoreAt = -Infinity;
  /** When the last message about this game was emitted (or would have been, played silently). */
  private lastSentAt = -Infinity;
  private statsAt: number | null = null;
  private announceAt: number | null = null;
  private cancelAt: number | null = null;
  private disruptionAt: number | null = null;
  private disruptionDone = false;
  private out: FeedMessage[] = [];
  private now = 0;
  private silent = false;
  /** The start time consumers were last told (the fixture's, or a postponement's new one). */
  private announcedStart: number;
  /** The message that ended the game (a result or a final status), once it has ended. */
  private ending: FeedMessage | null = null;
  /** The last instant playSilentlyTo ran the game at (the world schedules its next run after it). */
  playedTo = -Infinity;

  constructor(
    readonly plan: FixturePlan,
    private readonly opts: GameOptions,
  ) {
    this.eventId = eventIdOf(plan.eventNum);
    const names = { home: plan.home.name, away: plan.away.name };
    this.engine = createEngine(plan.league.sport, {
      rng: Rng.derive(opts.seed, 'game', plan.eventNum),
      league: plan.league,
      home: plan.home,
      away: plan.away,
      names,
    });
    this.disruption = planDisruption(
      Rng.derive(opts.seed, 'plan', plan.eventNum),
      plan,
      opts.config,
      this.engine.expectedDurationMs(),
    );
    this.book = new Book(plan.eventNum, opts.config);
    this.kickoffAt = plan.startTime;
    this.deepenAt = plan.startTime - opts.config.fullMarketsLeadMs;
    this.announcedStart = plan.startTime;
    this.driftAt = nextDriftAt(plan.startTime, plan.publishAt);
    const d = this.disruption;
    if (d.kind === 'cancelled' || d.kind === 'walkover') {
      // A disruption drawn for before the publication happens just after it. Both instants are
      // fixed by the plan: a restarted world calls the game off at the very same time.
      const at = plan.startTime - d.beforeStartMs;
      this.disruptionAt = at > plan.publishAt ? at : Math.min(plan.publishAt + MINUTE, plan.startTime);
    }
  }

  get status(): Phase {
    return this.phase;
  }

  get marketCount(): number {
    return this.book.size;
  }

  get isDone(): boolean {
    return this.phase === 'done';
  }

  /** Whether the game is over (its result or final status is out; final stats may follow). */
  get isOver(): boolean {
    return this.ending !== null;
  }

  /** Next simulated instant something happens to this game (Infinity when done). */
  nextAt(): number {
    let t = Infinity;
    const consider = (x: number | null): void => {
      if (x !== null && x < t) t = x;
    };
    switch (this.phase) {
      case 'prematch':
        consider(this.deepenAt);
        consider(this.driftAt);
        consider(this.disruptionAt);
        consider(this.kickoffAt);
        break;
      case 'delayed':
        consider(this.kickoffAt);
        break;
      case 'postponed':
        consider(this.announceAt);
        consider(this.cancelAt);
        consider(this.kickoffAt);
        break;
      case 'live':
        consider(this.stepAt);
        if (this.locked && this.lockedUntil > this.now) consider(this.lockedUntil);
        else if (this.ticking()) consider(this.lastPricedAt + this.opts.tickMs!);
        if ((this.opts.keepAliveMs ?? 0) > 0) consider(this.lastSentAt + this.opts.keepAliveMs!);
        break;
      case 'interrupted':
        consider(this.pausedUntil);
        break;
      case 'ended':
        consider(this.statsAt);
        break;
      case 'done':
        break;
    }
    return t;
  }

  /** Whether the open book is repriced between steps now (the engine's clock runs). */
  private ticking(): boolean {
    return (
      (this.opts.tickMs ?? 0) > 0 &&
      !this.locked &&
      !this.book.removed &&
      this.engine.clockRunning?.() === true &&
      Number.isFinite(this.lastPricedAt)
    );
  }

  /** How long the clock has run since the engine's last step (0 when not live). */
  private sinceStepMs(): number {
    return this.phase === 'live' ? Math.max(0, this.now - this.lastStepAt) : 0;
  }

  // --- messages -------------------------------------------------------------------------------

  private emit(m: FeedMessage): void {
    if (m.type === 'result' || (m.type === 'status' && isTerminal(m.status))) this.ending = m;
    this.lastSentAt = this.now;
    if (!this.silent) this.out.push(m);
  }

  fixtureMessage(): FixtureMessage {
    const { league, home, away } = this.plan;
    return {
      type: 'fixture',
      ts: iso(this.now),
      event_id: this.eventId,
      sport: league.sport,
      league: { slug: league.slug, name: league.name, country: league.country, tier: league.tier },
      home_team: home.name,
      away_team: away.name,
      start_time: iso(this.announcedStart),
      home_logo_id: home.logoId,
      away_logo_id: away.logoId,
    };
  }

  private publish(locked: boolean, withLayout: boolean): void {
    // Played silently, the book is left as it is: what it holds is what consumers were sent.
    if (this.silent) return;
    let fairMarkets = this.prematchTilt(this.engine.markets(this.depth, this.sinceStepMs()));
    let layout = withLayout ? layoutOf(this.depth === 'full' ? fairMarkets : this.engine.markets('full')) : undefined;
    if (this.book.withdrawDecided) {
      // In play, totals and handicap lines follow the score (live-lines.ts); the lines they add take
      // ids from the layout of the whole book, the same all game long.
      layout = this.liveLayout ??= layoutOf(this.engine.markets('full'));
      fairMarkets = this.liveLines.follow(fairMarkets, layout);
    }
    const { added, changes, withdrawn } = this.book.sync(fairMarkets, locked, layout);
    if (added.length > 0) this.emit({ type: 'markets', ts: iso(this.now), event_id: this.eventId, markets: added });
    if (changes.length > 0) this.emit({ type: 'odds', ts: iso(this.now), event_id: this.eventId, changes });
    if (withdrawn.length > 0)
      this.emit({ type: 'remove_markets', ts: iso(this.now), event_id: this.eventId, market_ids: withdrawn });
  }

  /** Before kick-off the book drifts (drift.ts): a pure function of the seed, event and world time. */
  private prematchTilt(markets: ReturnType<MatchEngine['markets']>): ReturnType<MatchEngine['markets']> {
    if (this.phase !== 'prematch' && this.phase !== 'delayed' && this.phase !== 'postponed') return markets;
    const at = Math.min(this.now, this.plan.startTime);
    return tiltMarkets(markets, driftAt(this.opts.seed, this.plan.eventNum, this.plan.startTime, at));
  }

  private lockAll(): void {
    if (this.silent) return;
    const changes = this.book.lockAll();
    if (changes.length > 0) this.emit({ type: 'odds', ts: iso(this.now), event_id: this.eventId, changes });
  }

  private scoreMessage(s: Snapshot): void {
    this.emit({
      type: 'score',
      ts: iso(this.now),
      event_id: this.eventId,
      score: s.score,
      period: s.period,
      clock: s.clock,
      period_scores: s.periodScores,
      sport_data: s.sportData,
      scoreboard: s.scoreboard,
    });
    this.lastScoreAt = this.now;
  }

  private maybeScore(force: boolean): void {
    if (this.silent) return; // nothing is sent: no snapshot to take
    const s = this.engine.snapshot();
    const key = JSON.stringify([s.score, s.period, s.periodScores, s.sportData, s.scoreboard]);
    const clockDue = this.now - this.lastScoreAt >= this.opts.config.clockUpdateMs;
    if (force || key !== this.lastScoreKey || clockDue) {
      this.lastScoreKey = key;
      this.scoreMessage(s);
    }
  }

  /** Whether the state a client sees (score, period, serve, bases…) differs from the last score sent. */
  private stateChanged(): boolean {
    if (this.silent) return false;
    const s = this.engine.snapshot();
    return JSON.stringify([s.score, s.period, s.periodScores, s.sportData, s.scoreboard]) !== this.lastScoreKey;
  }

  // --- lifecycle ------------------------------------------------------------------------------

  /** The fixture and its first markets, published at `now`. */
  open(now: number): FeedMessage[] {
    this.now = now;
    this.emit(this.fixtureMessage());
    if (this.deepenAt !== null && this.deepenAt <= now) {
      this.depth = 'full';
      this.deepenAt = null;
    }
    this.publish(false, true);
    return this.flush();
  }

  private flush(): FeedMessage[] {
    const out = this.out;
    this.out = [];
    return out;
  }

  /** Plays everything due at `now` (the value nextAt() returned) and returns the messages, in order. */
  run(now: number): FeedMessage[] {
    this.now = now;
    switch (this.phase) {
      case 'prematch':
        this.runPrematch(now);
        break;
      case 'delayed':
        if (now >= this.kickoffAt) this.kickOff();
        break;
      case 'postponed':
        this.runPostponed(now);
        break;
      case 'live':
        this.runLive(now);
        break;
      case 'interrupted':
        if (this.pausedUntil !== null && now >= this.pausedUntil) this.resume();
        break;
      case 'ended':
        if (this.statsAt !== null && now >= this.statsAt) {
          if (!this.silent) {
            this.emit({
              type: 'stats',
              ts: iso(now),
              event_id: this.eventId,
              players: this.engine.stats(),
              final: true,
            });
          }
          this.statsAt = null;
          this.phase = 'done';
        }
        break;
      case 'done':
        break;
    }
    return this.flush();
  }

  private runPrematch(now: number): void {
    if (this.deepenAt !== null && now >= this.deepenAt) {
      this.deepenAt = null;
      if (this.depth === 'main') {
        this.depth = 'full';
        this.publish(false, true);
      }
    }
    if (this.driftAt !== null && now >= this.driftAt) {
      this.driftAt = nextDriftAt(this.plan.startTime, now);
      this.publish(false, false);
    }
    const d = this.disruption;
    if (this.disruptionAt !== null && now >= this.disruptionAt) {
      this.disruptionAt = null;
      if (d.kind === 'cancelled') {
        this.emit({ type: 'status', ts: iso(now), event_id: this.eventId, status: 'cancelled' });
        this.phase = 'done';
        return;
      }
      if (d.kind === 'walkover') {
        this.emit({
          type: 'result',
          ts: iso(now),
          event_id: this.eventId,
          status: 'walkover',
          score: { home: 0, away: 0 },
          period_scores: [],
          ended_at: iso(now),
          winner: d.winner,
        });
        this.phase = 'done';
        return;
      }
    }
    if (now < this.kickoffAt) return;
    if (d.kind === 'delayed' && !this.disruptionDone) {
      this.disruptionDone = true;
      this.emit({ type: 'status', ts: iso(now), event_id: this.eventId, status: 'delayed' });
      this.kickoffAt = now + d.delayMs;
      this.phase = 'delayed';
      return;
    }
    if (d.kind === 'postponed' && !this.disruptionDone) {
      this.disruptionDone = true;
      this.emit({ type: 'status', ts: iso(now), event_id: this.eventId, status: 'postponed' });
      this.phase = 'postponed';
      if (d.resumeAfterMs !== null) {
        this.announceAt = now + 30 * MINUTE;
        this.kickoffAt = now + d.resumeAfterMs;
      } else {
        this.kickoffAt = Infinity;
        this.cancelAt = now + this.opts.config.postponedCancelAfterMs;
      }
      return;
    }
    this.kickOff();
  }

  private runPostponed(now: number): void {
    if (this.announceAt !== null && now >= this.announceAt) {
      this.announceAt = null;
      // The new kick-off time is announced as a fixture update.
      this.announcedStart = this.kickoffAt;
      this.emit(this.fixtureMessage());
    }
    if (this.cancelAt !== null && now >= this.cancelAt) {
      this.cancelAt = null;
      this.emit({ type: 'status', ts: iso(now), event_id: this.eventId, status: 'cancelled' });
      this.phase = 'done';
      return;
    }
    if (now >= this.kickoffAt) this.kickOff();
  }

  private kickOff(): void {
    this.phase = 'live';
    this.depth = 'full';
    this.emit({ type: 'status', ts: iso(this.now), event_id: this.eventId, status: 'live' });
    this.stepAt = this.now + this.engine.begin();
    this.lastStepAt = this.now;
    this.maybeScore(true);
    const d = this.disruption;
    if (d.kind === 'abandoned' || d.kind === 'retired' || d.kind === 'interrupted')
      this.disruptionAt = this.now + d.afterMs;
    this.locked = false;
    this.book.withdrawDecided = true;
    this.publish(false, true);
    this.lastPricedAt = this.now;
  }

  private resume(): void {
    this.pausedUntil = null;
    this.phase = 'live';
    this.emit({ type: 'status', ts: iso(this.now), event_id: this.eventId, status: 'live' });
    this.maybeScore(true);
    this.stepAt = Math.max(this.stepAt ?? this.now, this.now);
    this.updateLocks(true);
  }

  private runLive(now: number): void {
    if (this.stepAt !== null && now >= this.stepAt) {
      const res = this.engine.step();
      this.stepAt = now + res.next;
      this.lastStepAt = now;
      if (this.engine.finished()) {
        this.finish();
        return;
      }
      if (res.lockMs !== undefined) this.lockedUntil = Math.max(this.lockedUntil, now + res.lockMs);
      const inBreak = this.engine.inBreak();
      // A break locks the book briefly (the period's markets close, the next ones are set), then it reopens.
      if (inBreak && !this.wasInBreak) this.lockedUntil = Math.max(this.lockedUntil, now + breakLockMs(res.next));
      const nearEnd = this.engine.nearEnd();
      if (!this.finalLock && nearEnd) {
        this.finalLock = true;
        // Minor leagues withdraw their book near the end; the others keep pricing to the last play.
        if (this.plan.league.tier >= 3 && !this.book.removed && this.book.size > 0) {
          this.emit({ type: 'remove_markets', ts: iso(now), event_id: this.eventId, all: true });
          this.book.removed = true;
        }
      } else if (this.finalLock && !nearEnd) {
        // The end was averted (a checkout missed, a match point round lost): the game goes on, and
        // so does its book, offered again whole (new markets need the layout for their ids).
        this.finalLock = false;
        if (this.book.removed) {
          this.book.restore();
          this.publish(now < this.lockedUntil, true);
        }
      }
      // The book follows the state before the score is told: a client never sees a new score with
      // the old prices open (a decided market is withdrawn, a goal locks, the rest is repriced).
      this.updateLocks(this.stateChanged());
      this.maybeScore(false);
      if (inBreak && !this.wasInBreak && !this.silent)
        this.emit({ type: 'stats', ts: iso(now), event_id: this.eventId, players: this.engine.stats(), final: false });
      this.wasInBreak = inBreak;
      if (this.checkLiveDisruption(now)) return;
      this.keepAlive();
      return;
    }
    this.updateLocks(false);
    this.keepAlive();
  }

  /** Nothing sent for keepAliveMs: the current score again (the service takes it as fresh data, changing nothing). */
  private keepAlive(): void {
    const every = this.opts.keepAliveMs ?? 0;
    if (every <= 0 || this.now - this.lastSentAt < every) return;
    this.lastSentAt = this.now;
    if (!this.silent) this.scoreMessage(this.engine.snapshot());
  }

  /** Publishes lock changes and, when open and due, new prices. */
  private updateLocks(force: boolean): void {
    const locked = this.now < this.lockedUntil;
    if (locked) {
      // A change of state during a lock still withdraws the markets it decided.
      if (force) this.publish(true, false);
      else if (!this.locked) this.lockAll();
      this.locked = true;
      return;
    }
    const due = this.now - this.lastPricedAt >= this.opts.repriceMs;
    if (this.locked || due || force) {
      this.publish(false, false);
      this.lastPricedAt = this.now;
    }
    this.locked = false;
  }

  private checkLiveDisruption(now: number): boolean {
    const d = this.disruption;
    if (this.disruptionAt === null || now < this.disruptionAt) return false;
    this.disruptionAt = null;
    const s = this.engine.snapshot();
    if (d.kind === 'interrupted') {
      this.emit({ type: 'status', ts: iso(now), event_id: this.eventId, status: 'interrupted' });
      this.lockAll();
      this.locked = true;
      this.phase = 'interrupted';
      this.pausedUntil = now + d.forMs;
      this.stepAt = this.pausedUntil + (this.stepAt! - now);
      // The clock stops while play is interrupted: what had run of the step stays run.
      this.lastStepAt += d.forMs;
      return true;
    }
    if (d.kind === 'abandoned') {
      this.emit({
        type: 'result',
        ts: iso(now),
        event_id: this.eventId,
        status: 'abandoned',
        score: s.score,
        period_scores: s.periodScores,
        ended_at: iso(now),
      });
      this.phase = 'done';
      return true;
    }
    if (d.kind === 'retired') {
      const winner: TeamSide = d.retiring === 'home' ? 'away' : 'home';
      this.emit({
        type: 'result',
        ts: iso(now),
        event_id: this.eventId,
        status: 'retired',
        score: s.score,
        period_scores: s.periodScores,
        ended_at: iso(now),
        winner,
      });
      this.phase = 'ended';
      this.statsAt = now + this.opts.config.finalStatsDelayMs;
      return true;
    }
    return false;
  }

  private finish(): void {
    // Final whistle: the book is locked (decided markets withdrawn) before the final score is told.
    this.publish(true, false);
    this.locked = true;
    this.maybeScore(true);
    const r = this.engine.result();
    this.emit({
      type: 'result',
      ts: iso(this.now),
      event_id: this.eventId,
      status: 'ended',
      score: r.score,
      period_scores: r.periodScores,
      ended_at: iso(this.now),
      ...(r.winner !== null ? { winner: r.winner } : {}),
    });
    this.phase = 'ended';
    this.statsAt = this.now + this.opts.config.finalStatsDelayMs;
  }

  /**
   * Plays the game silently from its publication up to `until`, exactly as a run that published it
   * would have (same instants, same random draws), without sending anything: a world that starts
   * (or restarts) after the publication knows where every game stands and how each one ended.
   */
  playSilentlyTo(until: number): void {
    this.silent = true;
    let at = Math.max(this.nextAt(), this.plan.publishAt);
    while (at <= until && this.phase !== 'done') {
      this.run(at);
      this.playedTo = at;
      at = Math.max(this.nextAt(), at + 1);
    }
    this.out = [];
    this.silent = false;
  }

  /** Whether the game, played silently so far, has not started nor been disrupted yet (open() publishes it). */
  get isPrematch(): boolean {
    return this.phase === 'prematch';
  }

  /**
   * The messages that end the game for a consumer that still holds it open (in `heldStatus`) from
   * an earlier run: the very result an uninterrupted run sent (re-stamped `now`; its `ended_at` is
   * the official one), or the final status at the instant it happened. A game that ended in play
   * (retired, abandoned) held as not started gets its kick-off first, or the lifecycle would refuse
   * the result. Final player stats whose time has passed come with it (they come later otherwise).
   * Nothing while it is not over.
   */
  endingMessages(now: number, heldStatus: string): FeedMessage[] {
    const m = this.ending;
    if (m === null) return [];
    if (m.type !== 'result') return [m];
    const out: FeedMessage[] = [];
    if ((m.status === 'retired' || m.status === 'abandoned') && !IN_PLAY.has(heldStatus)) {
      out.push({ type: 'status', ts: iso(now), event_id: this.eventId, status: 'live' });
    }
    out.push({ ...m, ts: iso(now) });
    if ((m.status === 'ended' || m.status === 'retired') && this.phase === 'done') {
      out.push({ type: 'stats', ts: iso(now), event_id: this.eventId, players: this.engine.stats(), final: true });
    }
    return out;
  }

  /**
   * Messages that bring a consumer to the state of a game under way (played silently) at `now`.
   * A consumer that `held` it from an earlier run is told to withdraw the book it holds first: lines
   * added in play, or decided while the world was down, are not in the book offered now (which the
   * consumer takes again whole, same ids; withdrawn markets are kept for grading).
   */
  openInProgress(now: number, held = false): FeedMessage[] {
    this.now = now;
    this.emit(this.fixtureMessage());
    const started = this.phase === 'live' || this.phase === 'interrupted';
    const locked = this.phase === 'interrupted' || (this.phase === 'live' && now < this.lockedUntil);
    if (started) this.book.withdrawDecided = true;
    if (started && held) this.emit({ type: 'remove_markets', ts: iso(now), event_id: this.eventId, all: true });
    this.publish(locked, true);
    if (started) {
      this.emit({ type: 'status', ts: iso(now), event_id: this.eventId, status: 'live' });
      this.maybeScore(true);
    }
    if (this.phase === 'interrupted' || this.phase === 'delayed' || this.phase === 'postponed') {
      this.emit({ type: 'status', ts: iso(now), event_id: this.eventId, status: this.phase });
    }
    this.locked = locked;
    this.lastPricedAt = now;
    return this.flush();
  }
}
