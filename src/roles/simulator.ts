// The built-in simulator as this node's feed: it resumes what an earlier run left open, and what the store refuses is sent again.
import { isTerminal } from '../domain/lifecycle.js';
import { startSimulatorWorker, type SimulatorWorkerHandle } from '../feed/simulator/worker-host.js';
import type { OutrightBook } from '../live/outright-book.js';
import type { ReadModel } from '../live/read-model.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import { retryingProducer, type RetryingProducer } from '../pipeline/retrying-producer.js';
import type { NodeParts } from './node.js';
import type { WorkStart } from './work.js';

/** Simulator outright markets still unsettled from an earlier run: the simulator settles those that are over. */
function openSimulatorOutrights(outrights: OutrightBook): Map<string, number[]> {
  const open = new Map<string, number[]>();
  for (const t of outrights.tournaments.values()) {
    if (!t.tournamentId.startsWith('t-')) continue;
    const ids = [...t.markets.keys()].filter((id) => !t.results.has(id));
    if (ids.length > 0) open.set(t.tournamentId, ids);
  }
  return open;
}

/** Simulator events left open by an earlier run: the simulator closes those that are over. */
function openSimulatorEvents(readModel: ReadModel): Map<string, string> {
  const open = new Map<string, string>();
  for (const le of readModel.all()) {
    if (le.event.id.startsWith('sim-') && !isTerminal(le.event.status)) open.set(le.event.id, le.event.status);
  }
  return open;
}

/** How often (wall ms) the simulator repeats a quiet live game's score: 10 s, or a third of STALE_LOCK_SECONDS if shorter. */
function simulatorKeepAliveMs(staleLockSeconds: number): number {
  return staleLockSeconds > 0 ? Math.min(10_000, (staleLockSeconds * 1000) / 3) : 10_000;
}

/** How far the world the built-in feed starts with has loaded. */
export interface WorldLoad {
  events: number;
  of: number;
  done: boolean;
  /** The simulator building that world, before any of it is sent: games made of games to make (0 of 0 until it says). */
  built: { games: number; of: number };
}

export class BuiltInFeed {
  readonly kind = 'simulator';
  private simulator: SimulatorWorkerHandle | null = null;
  /** Made at the first batch, kept across a pipeline node's terms (its held messages too). */
  private producer: RetryingProducer | null = null;
  /** Whether the world as it stood at the start has been applied (not ready before: 1 sport, 0 live). */
  private worldLoaded = false;
  private loadedEvents = 0;
  private worldEvents = 0;
  private builtGames = 0;
  private buildGames = 0;

  constructor(
    private readonly node: NodeParts,
    private readonly pipeline: Pipeline,
  ) {}

  /** Messages the producer holds to send again (metric feed_retry_held). */
  get held(): number {
    return this.producer?.queue.size ?? 0;
  }

  /** False while the simulator still sends the world it starts with (readiness, /v1/status). */
  get loaded(): boolean {
    return this.worldLoaded;
  }

  /** The load of the world the simulator starts with: events applied of how many (0 of 0 until its first batch). */
  get progress(): WorldLoad {
    return {
      events: this.loadedEvents,
      of: this.worldEvents,
      done: this.worldLoaded,
      built: { games: this.builtGames, of: this.buildGames },
    };
  }

  /** Starts the simulator's world where work started. */
  start(at: WorkStart): void {
    const { node, pipeline } = this;
    const { config, opts, logger, log } = node;
    // Only an empty world makes the node wait (a fresh store: 1 sport, 0 live events for seconds).
    // A restart or a new leader already holds the stored world and serves it at once; its
    // simulator's first batches only catch it up.
    const { live, prematch } = node.readModel.counts();
    this.worldLoaded = live + prematch > 0;
    this.simulator = startSimulatorWorker({
      seed: config.simSeed,
      speed: config.simSpeed,
      startAt: at.worldStartAt,
      wallStartAt: at.wallStartAt,
      openEvents: openSimulatorEvents(node.readModel),
      openOutrights: openSimulatorOutrights(pipeline.outrights),
      // Quiet spells of a game (a minute between steps, half time) must not look like a dead
      // feed: the simulator sends a quiet live game's score again well within the limit.
      config: { keepAliveWallMs: simulatorKeepAliveMs(config.staleLockSeconds), ...opts.simulator },
      onBatch: (messages) => (this.producer ??= retryingProducer((m) => pipeline.applyAll(m), log)).submit(messages),
      onError: (err) => logger?.error({ err }, 'simulator error'),
      onBuildProgress: (done, of) => {
        this.builtGames = done;
        this.buildGames = of;
      },
      onLoadProgress: (events, of) => {
        this.loadedEvents = events;
        this.worldEvents = of;
      },
      onLoaded: () => {
        this.worldLoaded = true;
        const { live, prematch } = node.readModel.counts();
        logger?.info({ live, prematch }, 'simulated world loaded: ready');
      },
    });
  }

  /** A deposed pipeline node: the simulator stops (whatever its last batch met); the producer stays. */
  async stop(): Promise<void> {
    const running = this.simulator;
    this.simulator = null;
    await running?.stop().catch(() => undefined);
  }

  /** Closing: the producer stops waiting for the store first, as the simulator's last batch may be waiting. */
  async close(): Promise<void> {
    const producerClosed = this.producer?.close();
    await this.simulator?.stop();
    await producerClosed;
  }
}
