// The stream's frame worker (a worker thread): writes odds frames as bytes off the main thread, which only plans them and writes them to sockets.
import { parentPort } from 'node:worker_threads';
import type { OddsEntry } from '../../live/log-entry.js';
import type { FrameWorkEntry, FrameWorkReply, FrameWorkRequest } from './frame-work.js';
import { oddsFrame } from './odds-frame.js';

function asOddsEntry(e: FrameWorkEntry): OddsEntry {
  const n = e.odds.length;
  return {
    kind: 'odds',
    position: { ms: 0, seq: 0 },
    eventId: e.eventId,
    sport: '',
    league: '',
    at: 0,
    bytes: 0,
    count: n,
    layout: -1,
    packed: null,
    changes: {
      marketIds: e.marketIds,
      selectionIds: e.selectionIds,
      odds: e.odds,
      locked: e.locked,
    },
  };
}

parentPort?.on('message', (req: FrameWorkRequest) => {
  const entries = req.entries.map(asOddsEntry);
  const frames: Buffer[] = [];
  const ends = new Uint32Array(req.jobs.length);
  let size = 0;
  for (let j = 0; j < req.jobs.length; j++) {
    const job = req.jobs[j]!;
    const frame = oddsFrame(entries[job.e]!, job.format, job.id, job.kept ?? undefined);
    frames.push(frame);
    size += frame.length;
    ends[j] = size;
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const f of frames) {
    bytes.set(f, at);
    at += f.length;
  }
  const reply: FrameWorkReply = { seq: req.seq, bytes, ends };
  parentPort?.postMessage(reply, [bytes.buffer, ends.buffer]);
});
