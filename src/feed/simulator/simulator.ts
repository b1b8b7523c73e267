// The Simulator: a deterministic discrete-event world that advances to a simulated time and returns feed messages.
import type { FeedMessage } from '../messages.js';
import { resolveConfig, type SimConfig, type SimConfigInput } from './config.js';
import { SimGame, planDisruption, type FixturePlan } from './game.js';
import { MinHeap } from './heap.js';
import { DAY_MS, epochDayOf, eventIdOf, eventNumberOf, eventNumberParts } from './ids.js';
import { OutrightWorld } from './outrights/outrights.js';
import { Rng } from './rng.js';
import { fixturesOfDay } from './schedule.js';
import { buildWorld, type SimLeague, type World } from './world.js';

export interface SimulatorOptions {
  seed: number;
  /** Time acceleration of the caller's clock: paces price updates to a sane wall-clock rate. */
  speed: number;
  /** Epoch ms of simulated time when the world starts. */
  startAt: number;
  config?: SimConfigInput;
  /**
   * Events of this world a consumer still holds open from an earlier run (id → status). Those
   * that are over by the start are closed on the first call, so a restart leaves nothing live forever.
   */
  openEvents?: ReadonlyMap<string, string>;
  /**
   * Outright markets a consumer still holds unsettled from an earlier run (tournament id → market
   * ids). Those whose tournament is over by the start are settled (or voided) on the first call.
   */
  openOutrights?: ReadonlyMap<string, readonly number[]>;
  /**
   * The first advance builds the whole world as it stands (seconds for thousands of full books):
   * told how far along it is, games made of games to make, now and then and at its end.
   */
  onBuild?: (done: number, of: number) => void;
}

type Entry =
  | { at: number; key: number; kind: 'generate'; league: SimLeague; day: number }
  | { at: number; key: number; kind: 'game'; game: SimGame }
  | { at: number; key: number; kind: 'outrights' };

/** Heap key of outright work: before games due at the same instant. */
const OUTRIGHTS_KEY = -1;
/** Longer than any game lasts from its kick-off, an interruption included (a long tennis or cricket match: 6-7 hours). */
const LONGEST_GAME_MS = 12 * 3_600_000;

export interface SimulatorCounts {
  games: number;
  live: number;
  messages: number;
  simulatedTo: number;
}

export class Simulator {
  readonly world: World;
  readonly config: SimConfig;
  private readonly seed: number;
  private readonly startAt: number;
  private readonly onBuild: ((done: number, of: number) => void) | undefined;
  private readonly repriceMs: number;
  private readonly keepAliveMs: number;
  private readonly tickMs: number;
  private readonly heap = new MinHeap<Entry>();
  private readonly games = new Map<number, SimGame>();
  private started = false;
  private simulatedTo: number;
  private emitted = 0;
  private readonly openEvents: ReadonlyMap<string, string>;
  private readonly openOutrights: ReadonlyMap<string, readonly number[]> | undefined;
  /** Tournaments and their outright markets; null when the configuration turns them off. */
  readonly outrights: OutrightWorld | null;

  constructor(opts: SimulatorOptions) {
    this.seed = opts.seed >>> 0;
    this.startAt = opts.startAt;
    this.simulatedTo = opts.startAt;
    this.config = resolveConfig(opts.config);
    this.repriceMs = Math.max(this.config.repriceMs, this.config.repriceWallMs * Math.max(1, opts.speed));
    this.keepAliveMs = this.config.keepAliveWallMs * opts.speed;
    this.tickMs =
      this.config.liveTickMs > 0
        ? Math.max(this.config.liveTickMs, this.repriceMs, this.config.liveTickWallMs * Math.max(1, opts.speed))
        : 0;
    this.world = buildWorld(this.seed);
    this.openEvents = opts.openEvents ?? new Map();
    this.openOutrights = opts.openOutrights;
    this.onBuild = opts.onBuild;
    this.outrights = this.config.outrights
      ? new OutrightWorld({
          seed: this.seed,
          config: this.config,
          leagues: this.leagues(),
          allLeagues: this.world.leagues,
        })
      : null;
  }

  private leagues(): SimLeague[] {
    const { sports, tiers } = this.config;
    return this.world.leagues.filter(
      (l) => (sports === undefined || sports.includes(l.sport)) && (tiers === undefined || tiers.includes(l.tier)),
    );
  }

  private horizonMs(league: SimLeague): number {
    return this.config.horizonHours[league.tier] * 3_600_000;
  }

  private generateAt(league: SimLeague, day: number): number {
    return day * DAY_MS - this.horizonMs(league);
  }

  /**
   * Advances the world to `toMs` (simulated epoch ms) and returns what happened, in time order.
   * The first call publishes every fixture of the horizon (and the games already under way).
   */
  advance(toMs: number): FeedMessage[] {
    const out: FeedMessage[] = [];
    if (!this.started) {
      this.started = true;
      this.init(out);
    }
    for (;;) {
      const top = this.heap.peek();
      if (top === undefined || top.at > toMs) break;
      this.heap.pop();
      if (top.kind === 'generate') {
        this.generate(top.league, top.day, top.at, out);
        this.scheduleGeneration(top.league, top.day + 1);
      } else if (top.kind === 'outrights') {
        for (const m of this.outrights!.run(top.at)) out.push(m);
        this.scheduleOutrights();
      } else {
        const game = top.game;
        for (const m of game.run(top.at)) out.push(m);
        this.schedule(game, top.at);
      }
    }
    if (toMs > this.simulatedTo) this.simulatedTo = toMs;
    this.emitted += out.length;
    return out;
  }

  private init(out: FeedMessage[]): void {
    const firstDay = epochDayOf(this.startAt) - 1;
    const seen = new Set<string>();
    // The days already published, counted first: building them is the long part, told as it goes.
    const days: Array<{ league: SimLeague; day: number; fixtures: ReturnType<typeof fixturesOfDay> }> = [];
    for (const league of this.leagues()) {
      let day = firstDay;
      for (; this.generateAt(league, day) <= this.startAt; day++)
        days.push({ league, day, fixtures: fixturesOfDay(this.seed, league, day) });
      this.scheduleGeneration(league, day);
    }
    const of = days.reduce((n, d) => n + d.fixtures.length, 0);
    let done = 0;
    this.onBuild?.(0, of);
    for (const { league, day, fixtures } of days) {
      this.generate(league, day, this.startAt, out, seen, fixtures);
      done += fixtures.length;
      this.onBuild?.(done, of);
    }
    // Open events of earlier days are replayed the same way; events this world does not know at
    // all (another seed or configuration) are closed without a score change.
    for (const [eventId, status] of this.openEvents) {
      if (seen.has(eventId)) continue;
      const plan = this.planOf(eventId);
      if (plan !== null) {
        this.admit(plan, this.startAt, out);
        continue;
      }
      const m = closeStaleMessage(eventId, status, this.startAt);
      if (m !== null) out.push(m);
    }
    if (this.outrights !== null) {
      for (const m of this.outrights.init(this.startAt, this.openOutrights)) out.push(m);
      this.scheduleOutrights();
    }
  }

  /** The plan of one of this world's events from its id (league, day and slot are in the number), or null. */
  private planOf(eventId: string): FixturePlan | null {
    const num = eventNumberOf(eventId);
    if (num === null) return null;
    const { leagueIndex, day } = eventNumberParts(num);
    const league = this.leagues().find((l) => l.index === leagueIndex);
    if (league === undefined) return null;
    const f = fixturesOfDay(this.seed, league, day).find((x) => x.eventNum === num);
    return f === undefined ? null : { ...f, league, publishAt: this.generateAt(league, day) };
  }

  private scheduleOutrights(): void {
    const at = this.outrights?.nextAt() ?? Infinity;
    if (Number.isFinite(at)) this.heap.push({ at, key: OUTRIGHTS_KEY, kind: 'outrights' });
  }

  private scheduleGeneration(league: SimLeague, day: number): void {
    this.heap.push({ at: this.generateAt(league, day), key: league.index, kind: 'generate', league, day });
  }

  private schedule(game: SimGame, after: number): void {
    if (game.isDone) {
      this.games.delete(game.plan.eventNum);
      return;
    }
    const at = Math.max(game.nextAt(), after + 1);
    if (!Number.isFinite(at)) {
      this.games.delete(game.plan.eventNum);
      return;
    }
    this.heap.push({ at, key: game.plan.eventNum, kind: 'game', game });
  }

  private generate(
    league: SimLeague,
    day: number,
    now: number,
    out: FeedMessage[],
    seen?: Set<string>,
    fixtures = fixturesOfDay(this.seed, league, day),
  ): void {
    const publishAt = this.generateAt(league, day);
    for (const f of fixtures) {
      if (this.games.has(f.eventNum)) continue;
      this.admit({ ...f, league, publishAt }, now, out);
      seen?.add(eventIdOf(f.eventNum));
    }
  }

  /**
   * Brings a game into this run at `now`. It is first played silently from its publication, so a
   * run that starts late (or a restart) finds it exactly where an uninterrupted run would have it:
   * still to come (published as usual), under way (published as it stands), or over. An ended game
   * is left out, unless the consumer still holds it open from an earlier run: then it gets the very
   * message that ended it, and never a different one.
   */
  private admit(plan: FixturePlan, now: number, out: FeedMessage[]): void {
    // A game surely over that no consumer holds open would be played only to be left out.
    if (!this.openEvents.has(eventIdOf(plan.eventNum)) && this.surelyOverBy(plan, now)) return;
    const game = new SimGame(plan, {
      seed: this.seed,
      config: this.config,
      repriceMs: this.repriceMs,
      keepAliveMs: this.keepAliveMs,
      tickMs: this.tickMs,
    });
    game.playSilentlyTo(now);
    if (game.isOver) {
      const held = this.openEvents.get(game.eventId);
      if (held === undefined) return;
      for (const m of game.endingMessages(now, held)) out.push(m);
      if (game.isDone) return;
    } else {
      for (const m of game.isPrematch ? game.open(now) : game.openInProgress(now, this.openEvents.has(game.eventId)))
        out.push(m);
    }
    this.games.set(plan.eventNum, game);
    this.schedule(game, Math.max(now - 1, game.playedTo));
  }

  /**
   * Whether a game is over by `now` whatever happened in it (ended, called off, or cancelled after
   * a postponement), from its plan and disruption alone: the world starts without playing the
   * previous day's games through (with three round-the-clock soccer leagues, most of its start).
   */
  private surelyOverBy(plan: FixturePlan, now: number): boolean {
    // The disruption's kind and delays do not depend on the game's expected length (0 here).
    const d = planDisruption(Rng.derive(this.seed, 'plan', plan.eventNum), plan, this.config, 0);
    let until = plan.startTime + LONGEST_GAME_MS;
    if (d.kind === 'delayed') until += d.delayMs;
    if (d.kind === 'postponed')
      until =
        plan.startTime +
        (d.resumeAfterMs === null ? this.config.postponedCancelAfterMs : d.resumeAfterMs + LONGEST_GAME_MS);
    return until < now;
  }

  counts(): SimulatorCounts {
    let live = 0;
    for (const g of this.games.values()) if (g.status === 'live') live++;
    return { games: this.games.size, live, messages: this.emitted, simulatedTo: this.simulatedTo };
  }

  /** A game of the world by event id (tests and diagnostics). */
  game(eventId: string): SimGame | undefined {
    for (const g of this.games.values()) if (g.eventId === eventId) return g;
    return undefined;
  }
}

const IN_PLAY = new Set(['live', 'suspended', 'interrupted']);
const NOT_STARTED = new Set(['prematch', 'delayed', 'postponed']);

/** Closes an event an earlier run left open when its real ending is unknown: abandoned or cancelled. */
function closeStaleMessage(eventId: string, status: string, now: number): FeedMessage | null {
  const ts = new Date(now).toISOString();
  if (IN_PLAY.has(status)) return { type: 'status', ts, event_id: eventId, status: 'abandoned' };
  if (NOT_STARTED.has(status)) return { type: 'status', ts, event_id: eventId, status: 'cancelled' };
  return null;
}
