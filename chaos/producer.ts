// The campaign's producer: drives its games through the admin feed of the pipeline candidates, step by step, sending again what was refused as retryable, and bursts of odds during faults.
import { ADMIN_KEY, type Deployment } from './deployment.js';
import { burstLines, gameOf, STEPS, stepLines, type Game } from './games.js';
import type { History } from './history.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** Refusals saying the service lost what it acknowledged of a game: its fixture, or its `live` status. */
const LOST_STATE = /unknown event|is 'prematch'/;

interface FeedReport {
  node?: string;
  accepted?: number;
  rejected?: number;
  errors?: Array<{ line: number; error: string; message: string; retryable?: boolean }>;
}

/** Posts NDJSON to the candidates in turn until one answers 200: its report, or null when none did. */
export async function postFeed(
  d: Deployment,
  lines: readonly object[],
  timeoutMs = 10_000,
): Promise<FeedReport | null> {
  const body = lines.map((l) => JSON.stringify(l)).join('\n');
  for (const n of d.pipeline) {
    if (!d.isAlive(n)) continue;
    try {
      const res = await fetch(`${n.base}/admin/v1/feed`, {
        method: 'POST',
        headers: { 'x-admin-key': ADMIN_KEY, 'content-type': 'application/x-ndjson' },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await res.text();
      if (res.status === 200) return { ...(JSON.parse(text) as FeedReport), node: n.name };
    } catch {
      // down, or it held the body too long: the next candidate
    }
  }
  return null;
}

interface Driven {
  game: Game;
  /** The next step to send. */
  step: number;
  /** Who acknowledged its fixture, and when (what a refusal as unknown later is compared with). */
  fixture?: string;
  /** Times it was sent again from its fixture. */
  restarts: number;
}

export class Producer {
  readonly games: Game[] = [];
  /** Games whose result the service accepted. */
  readonly resulted = new Set<string>();
  private readonly active: Driven[] = [];
  private next = 0;
  private stopped = false;
  private bursting = 0;
  private bursts = 0;

  constructor(
    private readonly d: Deployment,
    private readonly h: History,
    private readonly seed: number,
    /** How many games are under way at once, and a step every `tickMs`. */
    private readonly concurrent: number,
    private readonly tickMs: number,
  ) {}

  /** Ids of the games started so far. */
  ids(): string[] {
    return this.games.map((g) => g.id);
  }

  get pending(): number {
    return this.active.length;
  }

  /** Runs until stop(): keeps `concurrent` games under way, then drains (bounded by `drainMs`). */
  async run(stopStarting: () => boolean, drainMs: number): Promise<void> {
    let drainFrom: number | null = null;
    while (!this.stopped) {
      if (!stopStarting()) {
        while (this.active.length < this.concurrent) {
          const game = gameOf(this.seed, this.next++);
          this.games.push(game);
          this.active.push({ game, step: 0, restarts: 0 });
        }
      } else {
        drainFrom ??= Date.now();
        if (this.active.length === 0 || Date.now() - drainFrom > drainMs) return;
      }
      await this.tick();
      await sleep(this.tickMs);
    }
  }

  stop(): void {
    this.stopped = true;
  }

  /** One step of every game under way, in one body; a refused line keeps its game at that step. */
  private async tick(): Promise<void> {
    // A few games move each tick (not all at once): their lives overlap and end at different times.
    const moving = this.active.filter((_, i) => (i + this.next) % 3 !== 0 || this.active.length < 3);
    const lines: Array<{ driven: Driven; line: object }> = [];
    for (const driven of moving) {
      for (const line of stepLines(driven.game, driven.step, Date.now())) lines.push({ driven, line });
    }
    if (lines.length === 0) return;
    this.h.feed.bodies++;
    this.h.feed.lines += lines.length;
    const report = await postFeed(
      this.d,
      lines.map((l) => l.line),
    );
    if (report === null) {
      this.h.feed.refusedBodies++;
      return; // nothing applied: every game stays at its step
    }
    const held = new Set<Driven>();
    for (const e of report.errors ?? []) {
      const entry = lines[e.line - 1];
      if (entry === undefined) continue;
      if (e.retryable === true) {
        held.add(entry.driven);
        this.h.feed.resentLines++;
      } else if (LOST_STATE.test(e.message) && entry.driven.step !== 0 && entry.driven.restarts < 3) {
        if (entry.driven.step === -1) continue; // a second line of the same step
        // Live data (a fixture, a status) acknowledged by a leader that was deposed before it
        // published or stored it is gone (only results and final statuses are durable when
        // acknowledged): a producer sends the game again from its fixture. Counted and noted.
        this.h.feed.restartedGames++;
        entry.driven.restarts++;
        this.h.note(
          `${entry.driven.game.id}: refused by ${report.node} at step ${entry.driven.step} (${e.message.slice(0, 80)}; fixture acknowledged ${entry.driven.fixture ?? 'never'}): sent again from its fixture`,
        );
        entry.driven.step = -1;
        held.add(entry.driven);
      } else {
        this.h.feedRejections.push({
          at: this.h.now(),
          line: `${report.node}: ${JSON.stringify(entry.line).slice(0, 200)} (fixture acknowledged ${entry.driven.fixture ?? 'never'})`,
          error: e.error,
          message: e.message,
        });
      }
    }
    for (const driven of moving) {
      if (driven.step === -1) driven.step = 0;
      if (held.has(driven)) continue;
      if (driven.step === 0) driven.fixture = `by ${report.node} at ${(this.h.now() / 1000).toFixed(1)} s`;
      if (driven.step === STEPS - 1) {
        this.resulted.add(driven.game.id);
        this.active.splice(this.active.indexOf(driven), 1);
      } else driven.step++;
    }
  }

  /** `bodies` bodies of odds changes for the games under way, sent back to back (what a busy feed does during a fault). */
  async burst(bodies: number): Promise<void> {
    if (this.bursting > 0) return;
    this.bursting++;
    try {
      for (let i = 0; i < bodies && !this.stopped; i++) {
        // Games live with their markets still offered (step 5 withdraws them; it may be in flight at step 4).
        const live = this.active.filter((a) => a.step >= 2 && a.step <= 4).map((a) => a.game.id);
        if (live.length === 0) return;
        this.h.feed.bodies++;
        this.h.feed.lines += live.length;
        const report = await postFeed(this.d, burstLines(live, this.bursts++), 5000);
        if (report === null) this.h.feed.refusedBodies++;
        // A game that ended meanwhile refuses odds (not an error of the service): only the other reasons count.
        for (const e of report?.errors ?? []) {
          if (e.retryable === true || /ended|not live|state/i.test(e.message)) continue;
          this.h.feedRejections.push({ at: this.h.now(), line: `burst ${i}`, error: e.error, message: e.message });
        }
      }
    } finally {
      this.bursting--;
    }
  }
}
