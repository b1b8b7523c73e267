// Section `stream-positions`: what carrying log positions to replicas costs a capacity tick (1,000 odds entries, 100,000 changes), in process.
import { join } from 'node:path';
import type { IngressMessage } from '../src/feed/packed-odds.js';
import { LogReplay, type BatchPositions } from '../src/live/log-replay.js';
import { ReadModel } from '../src/live/read-model.js';
import { Pipeline, type AppliedSink } from '../src/pipeline/pipeline.js';
import {
  decodeBatchPositions,
  decodeFeedBatch,
  encodeBatchPositions,
  encodeFeedBatch,
} from '../src/pipeline/stream-codec.js';
import { openSqliteStore } from '../src/store/sqlite-store.js';
import { median } from './measure.js';
import { check, type Section, type SectionResult } from './section.js';

const EVENTS = 1_000;
const MARKETS = 50; // two selections each: 100 changes an event a tick
const ROUNDS = 12;
const silent = { warn: () => undefined, error: () => undefined };

/** What the leader's change-stream writer does with a batch, timed: the feed batch, then its positions. */
class TimingSink implements AppliedSink {
  last: { feed: Buffer; positions: Buffer; positionsMs: number } | null = null;
  constructor(private readonly withPositions: boolean) {}
  applied(messages: IngressMessage[], positions: BatchPositions): void {
    const feed = encodeFeedBatch(messages);
    const t0 = performance.now();
    const encoded = this.withPositions ? encodeBatchPositions(positions) : Buffer.alloc(0);
    this.last = { feed, positions: encoded, positionsMs: performance.now() - t0 };
  }
  mark(): unknown {
    return null;
  }
  flushed(): void {}
}

function world(): IngressMessage[] {
  const out: IngressMessage[] = [];
  const ts = new Date().toISOString();
  for (let e = 0; e < EVENTS; e++) {
    const id = `pos-${e}`;
    out.push({
      type: 'fixture',
      event_id: id,
      ts,
      sport: 'soccer',
      league: { slug: 'bench', name: 'Bench League', country: 'Benchland' },
      home_team: `${id} Home`,
      away_team: `${id} Away`,
      start_time: new Date(Date.now() - 1_800_000).toISOString(),
    } as IngressMessage);
    out.push({
      type: 'markets',
      event_id: id,
      ts,
      markets: Array.from({ length: MARKETS }, (_, m) => ({
        market_id: m + 1,
        key: `totals:${m + 0.5}`,
        name: `Total ${m + 0.5}`,
        outcomes: [
          { selection_id: 2 * m + 1, code: 'over', label: 'Over', odds: 1.9 },
          { selection_id: 2 * m + 2, code: 'under', label: 'Under', odds: 1.9 },
        ],
      })),
    } as IngressMessage);
    out.push({ type: 'status', event_id: id, ts, status: 'live' } as IngressMessage);
  }
  return out;
}

function tick(n: number): IngressMessage[] {
  const ts = new Date().toISOString();
  return Array.from({ length: EVENTS }, (_, e) => ({
    type: 'odds',
    event_id: `pos-${e}`,
    ts,
    changes: Array.from({ length: 2 * MARKETS }, (_, k) => ({
      selection_id: k + 1,
      odds: 1.5 + ((n * 7 + k + e) % 300) / 100,
    })),
  })) as IngressMessage[];
}

export const streamPositionsSection: Section = {
  name: 'stream-positions',
  optIn: true,
  description:
    'carrying log positions to replicas: a 1,000-entry tick on a leader (recorded and encoded) and a replica (replayed into them), against the same without',
  async run(ctx): Promise<SectionResult> {
    const store = await openSqliteStore({ dataDir: join(ctx.tempDir, 'stream-positions') });
    const make = (opts: { sink?: AppliedSink; replica?: boolean }): Pipeline =>
      new Pipeline({
        readModel: new ReadModel({ now: Date.now }),
        store,
        now: Date.now,
        flushIntervalMs: 3_600_000,
        endedRetentionMs: 86_400_000,
        log: silent,
        ...(opts.sink !== undefined ? { sink: opts.sink } : {}),
        ...(opts.replica === true ? { replica: true } : {}),
      });
    const sink = new TimingSink(true);
    const leader = make({ sink });
    const plainLeader = make({});
    const replica = make({ replica: true });
    const plainReplica = make({ replica: true });
    const replay = new LogReplay(replica.readModel.log);
    try {
      const w = world();
      for (const p of [leader, plainLeader, replica, plainReplica]) await p.applyAll(w);
      const leaderMs: number[] = [];
      const plainLeaderMs: number[] = [];
      const encodeMs: number[] = [];
      const replicaMs: number[] = [];
      const plainReplicaMs: number[] = [];
      let positionsBytes = 0;
      let feedBytes = 0;
      let entries = 0;
      for (let r = 0; r < ROUNDS + 2; r++) {
        const t = tick(r);
        let t0 = performance.now();
        await plainLeader.applyAll(t);
        const plain = performance.now() - t0;
        t0 = performance.now();
        await leader.applyAll(t);
        const led = performance.now() - t0;
        const handed = sink.last;
        if (handed === null) throw new Error('the leader handed nothing on');
        // The wire trip, then both replicas apply the tick (one into the leader's positions).
        const messages = decodeFeedBatch(handed.feed);
        const again = decodeFeedBatch(handed.feed);
        t0 = performance.now();
        const positions = decodeBatchPositions(handed.positions);
        replay.begin();
        await replica.applyAll(messages);
        const outcome = replay.end(positions);
        const replayed = performance.now() - t0;
        if (!outcome.matched) throw new Error(`replay diverged: ${outcome.reason}`);
        t0 = performance.now();
        await plainReplica.applyAll(again);
        const plainReplayed = performance.now() - t0;
        if (r < 2) continue; // warm-up
        plainLeaderMs.push(plain);
        leaderMs.push(led);
        encodeMs.push(handed.positionsMs);
        replicaMs.push(replayed);
        plainReplicaMs.push(plainReplayed);
        positionsBytes = handed.positions.length;
        feedBytes = handed.feed.length;
        entries = positions.kinds.length;
        ctx.log(
          `[stream-positions] tick ${r - 1}/${ROUNDS}: leader ${led.toFixed(1)} ms (without a sink ${plain.toFixed(1)}), positions encoded in ${handed.positionsMs.toFixed(3)} ms; replica ${replayed.toFixed(1)} ms (plain ${plainReplayed.toFixed(1)})`,
        );
      }
      const m = {
        leader: median(leaderMs),
        plainLeader: median(plainLeaderMs),
        encode: median(encodeMs),
        replica: median(replicaMs),
        plainReplica: median(plainReplicaMs),
      };
      const replicaRatio = m.replica / m.plainReplica;
      const encodeShare = m.encode / m.leader;
      return {
        rows: [],
        checks: [
          check(
            'stream-positions',
            'stream-positions: replica tick replayed into positions / plain',
            replicaRatio,
            '<=',
            1.1,
          ),
          check('stream-positions', "stream-positions: positions' encoding / leader tick", encodeShare, '<=', 0.01),
        ],
        notes: [
          `stream-positions: a tick of ${entries.toLocaleString('en-US')} entries: positions ${positionsBytes.toLocaleString('en-US')} bytes beside a ${feedBytes.toLocaleString('en-US')}-byte feed entry (${((100 * positionsBytes) / feedBytes).toFixed(2)}%)`,
          `stream-positions: leader tick ${m.leader.toFixed(1)} ms with recording and both encodings (${m.plainLeader.toFixed(1)} ms without a sink); positions encoded in ${m.encode.toFixed(3)} ms (medians of ${ROUNDS})`,
          `stream-positions: replica tick ${m.replica.toFixed(1)} ms replayed into the leader's positions (decode included) against ${m.plainReplica.toFixed(1)} ms plain: ${replicaRatio.toFixed(3)}x`,
        ],
        data: {
          ...m,
          positionsBytes,
          feedBytes,
          entries,
          leaderMs,
          plainLeaderMs,
          encodeMs,
          replicaMs,
          plainReplicaMs,
        },
      };
    } finally {
      for (const p of [leader, plainLeader, replica, plainReplica]) await p.stop();
      await store.close();
    }
  },
};
