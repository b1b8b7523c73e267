// Starting to apply and settle (ROLE=all at once; ROLE=pipeline once elected, after loading the store): the world clock first.
import type { OutrightBook } from '../live/outright-book.js';
import type { ReadModel } from '../live/read-model.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import type { ChangeStreamWriter, Continuation, WorldClockParams } from '../pipeline/redis-change-stream.js';
import type { SettlementEngine } from '../pipeline/settlement/engine.js';
import type { NodeParts } from './node.js';

/** Where the world and the wall stood when work started (the simulator starts from there). */
export interface WorkStart {
  worldStartAt: number;
  wallStartAt: number;
}

export interface Work {
  pipeline: Pipeline;
  settlement: SettlementEngine;
  /** The built-in simulator feeds this node: the world clock runs at SIM_SPEED. */
  simulated: boolean;
  /** ROLE=pipeline: the change stream, told the world clock before any change. */
  writer?: ChangeStreamWriter;
  /** ROLE=pipeline: how this term continues its predecessor's published positions. */
  continues?: Continuation | null;
}

/** The world time the store last heard of: event updates, outright prices and results. */
function latestUpdate(readModel: ReadModel, outrights: OutrightBook): number {
  let latest = 0;
  for (const le of readModel.all()) latest = Math.max(latest, le.event.updatedAt);
  for (const t of outrights.tournaments.values()) {
    for (const m of t.markets.values()) latest = Math.max(latest, m.updatedAt);
    for (const r of t.results.values()) latest = Math.max(latest, r.settledAt);
  }
  return latest;
}

export async function startWork(node: NodeParts, work: Work): Promise<WorkStart> {
  const { pipeline, simulated } = work;
  const wallStartAt = node.now();
  // An accelerated world resumes where it stopped: its clock never goes back across restarts.
  const worldStartAt = simulated
    ? Math.max(wallStartAt, latestUpdate(node.readModel, pipeline.outrights))
    : wallStartAt;
  if (simulated) node.worldClock.run({ startAt: worldStartAt, wallStartAt, speed: node.config.simSpeed });
  const clock: WorldClockParams = { startAt: worldStartAt, wallStartAt, speed: simulated ? node.config.simSpeed : 1 };
  const writer = work.writer;
  if (writer !== undefined) {
    await writer.begin(clock, work.continues ?? null, node.changeLog.head.ms > 0 ? node.changeLog.head : null);
    // Before anything is appended in this term: the stored window is this term's log from here.
    pipeline.logWindow?.beginRun(writer.leaderEpoch);
  }
  pipeline.start();
  await work.settlement.start();
  return { worldStartAt, wallStartAt };
}
