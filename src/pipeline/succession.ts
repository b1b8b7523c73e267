// A new leader continues its predecessor's change log: it replays what the old leader published after the store's watermark, at the same positions.
import { LogReplay } from '../live/log-replay.js';
import { compareLogPositions, formatLogPosition, parseLogPosition, type LogPosition } from '../live/log-position.js';
import type { Pipeline, PipelineLogger } from './pipeline.js';
import {
  settlementEntryOf,
  type ChangeStreamWriter,
  type Continuation,
  type SettlementNote,
  type StreamEntry,
} from './redis-change-stream.js';
import { decodeFeedBatch } from './stream-codec.js';

/**
 * Called once the new leader has loaded the store, before it publishes anything. The store lacks
 * what the old leader applied after its last flush, yet the API nodes applied and streamed it:
 * replaying those entries (idempotent feed messages, in order) gives this leader the state the API
 * nodes have, at the same log positions, and its own positions continue after the old leader's.
 * The replayed changes are flushed before the new epoch's watermark says the store reflects them.
 * Returns what the leader record claims to continue (null when the stream no longer holds
 * everything after the watermark: the API nodes then take a fresh snapshot and their streams say
 * `snapshot_required`).
 */
export async function continuePredecessor(
  writer: ChangeStreamWriter,
  pipeline: Pipeline,
  log: PipelineLogger,
): Promise<Continuation | null> {
  const changeLog = pipeline.readModel.log;
  const replay = new LogReplay(changeLog);
  let head: LogPosition | null = null;
  const reach = (p: LogPosition | null): void => {
    if (p !== null && (head === null || compareLogPositions(p, head) > 0)) head = p;
  };
  let entries = 0;
  let diverged = 0;
  const apply = async (e: StreamEntry): Promise<void> => {
    entries++;
    if (e.kind === 'feed') {
      const messages = decodeFeedBatch(e.data);
      const p = e.positions;
      if (p === null) {
        await pipeline.applyAll(messages); // an older leader's entry: no positions to take
        return;
      }
      replay.begin();
      let matched;
      try {
        await pipeline.applyAll(messages);
      } finally {
        // This log is nobody's stream: what differs (a change the store had already) keeps its own place.
        matched = replay.end(p, 'keep').matched;
      }
      if (!matched) diverged++;
      const n = p.kinds.length;
      if (n > 0) reach({ ms: p.ms[n - 1] as number, seq: p.seq[n - 1] as number });
    } else if (e.kind === 'settlement') {
      const entry = settlementEntryOf(JSON.parse(e.data.toString()) as SettlementNote);
      if (entry !== null) {
        changeLog.accept(entry);
        reach(entry.position);
      }
    }
  };
  let tail: Awaited<ReturnType<ChangeStreamWriter['tail']>> | 'failed';
  try {
    tail = await writer.tail(apply);
  } catch (err) {
    log.warn({ err }, 'the change stream could not be read: streams start again after this failover');
    tail = 'failed';
  }
  // What was replayed (all of the tail, or some before a hole) reaches the store before this
  // epoch's watermark, at its leader record, says the store reflects this leader's state.
  if (entries > 0) await pipeline.flush();
  if (tail === 'first' || tail === 'failed') return null;
  if (tail === null) {
    log.warn(
      {},
      "the change stream no longer holds the old leader's last entries: streams start again after this failover",
    );
    return null;
  }
  reach(tail.mark.head === undefined ? null : parseLogPosition(tail.mark.head));
  if (head === null) {
    log.warn({}, 'the old leader published no log positions: streams start again after this failover');
    return null;
  }
  changeLog.advanceHead(head);
  const { last } = tail;
  log.warn(
    { entries, diverged, continues: `${last.epoch}:${last.seq}`, head: formatLogPosition(head) },
    "continuing the old leader's change log: replayed what it published after its last flush",
  );
  return { epoch: last.epoch, seq: last.seq, head: formatLogPosition(head) };
}
