// The faults a chaos campaign injects, one at a time from a seeded schedule: kill -9 of the leader or an API node, PostgreSQL refusing or dropping connections, Redis killed, restarted, stalled or its clients killed; each undone before the next.
import { Rng } from '../src/feed/simulator/rng.js';
import type { Deployment, Node } from './deployment.js';
import type { FaultKind, FaultRecord, History } from './history.js';
import { postFeed } from './producer.js';
import { getJson } from './readers.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export const FAULT_KINDS: readonly FaultKind[] = [
  'leader-kill',
  'api-node-kill',
  'pg-refuse',
  'pg-drop',
  'redis-kill',
  'redis-restart',
  'redis-stall',
  'redis-client-kill',
];

/** The marker event whose price the takeover probe moves. */
export const MARKER = 'chaos-marker';
/** How long a takeover may take before it counts as failed. */
const TAKEOVER_BOUND_MS = 30_000;

export function markerLines(): object[] {
  return [
    {
      type: 'fixture',
      event_id: MARKER,
      sport: 'soccer',
      league: { slug: 'chaos-marker', name: 'Chaos Marker', country: 'Chaosland' },
      home_team: 'Marker Home',
      away_team: 'Marker Away',
      start_time: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    },
    {
      type: 'markets',
      event_id: MARKER,
      markets: [
        {
          market_id: 1,
          key: '1x2',
          name: 'Match result',
          outcomes: [
            { selection_id: 1, code: 'home', label: 'Home', odds: 2 },
            { selection_id: 2, code: 'draw', label: 'Draw', odds: 3 },
            { selection_id: 3, code: 'away', label: 'Away', odds: 4 },
          ],
        },
      ],
    },
  ];
}

async function servedPrice(base: string): Promise<number> {
  const r = await getJson<{ markets?: Array<{ outcomes?: Array<{ odds?: number }> }> }>(
    base,
    `/v1/events/${MARKER}/odds`,
    2000,
  );
  return r.body?.markets?.[0]?.outcomes?.[0]?.odds ?? Number.NaN;
}

export class FaultInjector {
  private readonly rng: Rng;
  private price = 2;
  /** The fault under way (undone by `undo` on an interrupt). */
  private undo: (() => Promise<void>) | null = null;

  constructor(
    private readonly d: Deployment,
    private readonly h: History,
    seed: number,
    private readonly kinds: readonly FaultKind[],
    /** Called when a fault begins: the producer's burst. */
    private readonly onFault: () => void,
  ) {
    this.rng = Rng.derive(seed, 'faults');
  }

  /** The next fault's kind and the pause before it (ms), from the seed. */
  nextPlan(): { kind: FaultKind; pauseMs: number } {
    return { kind: this.rng.pick(this.kinds), pauseMs: this.rng.int(4000, 9000) };
  }

  /** Undoes the fault under way, if any (an interrupt). */
  async abort(): Promise<void> {
    const u = this.undo;
    this.undo = null;
    if (u !== null) await u().catch(() => undefined);
  }

  async inject(kind: FaultKind): Promise<FaultRecord> {
    const rec: FaultRecord = { kind, start: this.h.now(), end: this.h.now(), component: null, detail: '' };
    this.h.faults.push(rec);
    this.onFault();
    switch (kind) {
      case 'leader-kill':
        await this.leaderKill(rec);
        break;
      case 'api-node-kill': {
        const n = this.rng.pick(this.d.api);
        const down = this.rng.int(1000, 4000);
        await this.d.kill(n);
        rec.start = this.h.now();
        await sleep(down);
        await this.restart(n);
        rec.end = this.h.now();
        rec.detail = `${n.name} killed, restarted after ${down} ms`;
        break;
      }
      case 'pg-refuse': {
        const ms = this.rng.int(3000, 10_000);
        rec.component = 'datastore';
        this.undo = () => this.d.allowConnections();
        const ended = await this.d.refuseConnections();
        rec.start = this.h.now();
        await sleep(ms);
        await this.d.allowConnections();
        this.undo = null;
        rec.end = this.h.now();
        rec.detail = `connections refused for ${ms} ms (${ended} sessions ended)`;
        break;
      }
      case 'pg-drop': {
        const ms = this.rng.int(2000, 5000);
        let ended = 0;
        const t0 = performance.now();
        while (performance.now() - t0 < ms) {
          ended += await this.d.terminateSessions().catch(() => 0);
          await sleep(300);
        }
        rec.end = this.h.now();
        rec.detail = `every session ended every 300 ms for ${ms} ms (${ended} sessions ended)`;
        break;
      }
      case 'redis-kill':
      case 'redis-restart': {
        const down = kind === 'redis-kill' ? this.rng.int(2000, 8000) : 0;
        rec.component = 'usage_counters';
        this.undo = () => this.d.startRedis();
        await this.d.stopRedis(kind === 'redis-kill' ? 'SIGKILL' : 'SIGTERM');
        rec.start = this.h.now();
        await sleep(down);
        await this.d.startRedis();
        this.undo = null;
        rec.end = this.h.now();
        rec.detail = kind === 'redis-kill' ? `kill -9, down ${down} ms, restarted empty` : 'SIGTERM, restarted empty';
        break;
      }
      case 'redis-stall': {
        const s = this.rng.int(3, 6);
        rec.component = 'usage_counters';
        const c = this.d.redisClient();
        try {
          await c.connect();
          rec.start = this.h.now();
          await c.call('DEBUG', 'SLEEP', String(s));
        } finally {
          c.disconnect();
        }
        rec.end = this.h.now();
        rec.detail = `DEBUG SLEEP ${s}`;
        break;
      }
      case 'redis-client-kill': {
        const c = this.d.redisClient();
        let killed = 0;
        try {
          await c.connect();
          // SKIPME: this connection survives to count what it ended.
          killed = Number(await c.call('CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes'));
        } finally {
          c.disconnect();
        }
        rec.start = rec.end = this.h.now();
        rec.detail = `CLIENT KILL TYPE normal: ${killed} connections`;
        break;
      }
    }
    return rec;
  }

  private async restart(n: Node): Promise<void> {
    try {
      await this.d.startNode(n);
    } catch (err) {
      this.h.note(`${n.name} did not restart: ${(err as Error).message}`);
    }
  }

  /**
   * kill -9 of the leader, then a producer retrying a new marker price on every candidate until one
   * takes it, and the API nodes read until each serves it: kill to fresh data on every node.
   */
  private async leaderKill(rec: FaultRecord): Promise<void> {
    const leader = await this.d.leader(15_000);
    if (leader === null) {
      rec.detail = 'no leader to kill';
      rec.takeoverMs = null;
      return;
    }
    await this.d.kill(leader);
    rec.start = this.h.now();
    const killedAt = performance.now();
    let first: number | null = null;
    let fresh: number | null = null;
    while (performance.now() - killedAt < TAKEOVER_BOUND_MS) {
      if (first === null) {
        this.price = this.price >= 900 ? 2 : Math.round((this.price + 0.01) * 100) / 100;
        const r = await postFeed(
          this.d,
          [{ type: 'odds', event_id: MARKER, changes: [{ selection_id: 1, odds: this.price }] }],
          2000,
        );
        if (r !== null && r.accepted === 1) first = this.price;
      }
      if (first !== null) {
        const served = await Promise.all(this.d.api.filter((n) => this.d.isAlive(n)).map((n) => servedPrice(n.base)));
        if (served.every((p) => p >= (first as number))) {
          fresh = performance.now() - killedAt;
          break;
        }
      }
      await sleep(20);
    }
    rec.takeoverMs = fresh === null ? null : Math.round(fresh);
    await this.restart(leader);
    rec.end = this.h.now();
    rec.detail = `${leader.name} killed; ${fresh === null ? `no fresh data on every API node within ${TAKEOVER_BOUND_MS} ms` : `fresh on every API node after ${Math.round(fresh)} ms`}; restarted as a standby`;
  }
}

/** Feeds the marker once (the leader must take it before the campaign starts). */
export async function feedMarker(d: Deployment): Promise<boolean> {
  const r = await postFeed(d, markerLines());
  return r !== null && r.accepted === 2;
}
