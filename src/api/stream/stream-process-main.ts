// The stream process (STREAM_PROCESS=on): adopts caught-up streams' sockets from the service and writes them what its log entries say.
import type { Socket } from 'node:net';
import { Registry } from 'prom-client';
import { ChangeLog } from '../../live/change-log.js';
import { compareLogPositions } from '../../live/log-position.js';
import { knowFamilies } from '../../live/log-render.js';
import { familyGeneration, familyIdOfName } from '../../live/market-families.js';
import { unpackBatch } from './stream-batch.js';
import { StreamConnection, type HoldLimits } from './stream-connection.js';
import { StreamHub } from './stream-hub.js';
import { StreamMetrics } from './stream-metrics.js';
import type { ClockSample, CounterDelta, FromStreamProcess, ToStreamProcess } from './stream-process-protocol.js';
import { SocketSink } from './stream-sink.js';

function send(message: FromStreamProcess): void {
  process.send?.(message);
}

let clock: ClockSample = { wall: Date.now(), now: Date.now(), world: Date.now(), speed: 1 };
const worldNow = (): number => clock.world + (Date.now() - clock.wall) * clock.speed;
/** The service's wall clock (quota periods, stalls), followed from its samples. */
const serviceNow = (): number => clock.now + (Date.now() - clock.wall);

// Only live delivery happens here: resumes and snapshots are served by the service before a
// stream moves, so the log keeps no replay window (it orders entries and tells the hub).
const log = new ChangeLog({ now: Date.now, windowMs: 0, maxBytes: 1 });
const registry = new Registry();
let hub: StreamHub | null = null;
let metrics: StreamMetrics | null = null;
let settings: { bufferBytes: number; limits: HoldLimits } | null = null;

/** The service's family numbers as this process's (both number names as they meet them). */
let familyMap = new Map<number, number>();
let familyNames = new Map<number, string>();
let serviceGen = -1;
let localGen = familyGeneration();

const charges = new Map<number, (ok: boolean) => void>();
let nextCharge = 1;

function localFamilies(ids: Uint32Array): Uint32Array {
  if (familyGeneration() !== localGen) {
    // This process's numbering started again: what was mapped means nothing now.
    localGen = familyGeneration();
    familyMap = new Map();
  }
  const out = new Uint32Array(ids.length);
  let last = -1;
  let local = 0;
  for (let k = 0; k < ids.length; k++) {
    const id = ids[k] as number;
    if (id !== last) {
      last = id;
      local = familyMap.get(id) ?? 0;
      if (local === 0 && id !== 0) {
        const name = familyNames.get(id);
        if (name !== undefined) familyMap.set(id, (local = familyIdOfName(name)));
      }
    }
    out[k] = local;
  }
  return out;
}

function onBatch(m: Extract<ToStreamProcess, { t: 'batch' }>): void {
  if (m.gen !== serviceGen) {
    serviceGen = m.gen;
    familyMap = new Map();
    familyNames = new Map();
  }
  for (const [id, name] of m.names) familyNames.set(id, name);
  for (const { entry, families } of unpackBatch(m.batch)) {
    if (entry.kind === 'odds' && families !== null) knowFamilies(entry, localFamilies(families));
    log.accept(entry);
  }
}

function onAdopt(m: Extract<ToStreamProcess, { t: 'adopt' }>, socket: Socket | undefined): void {
  if (hub === null || metrics === null || settings === null || socket === undefined) {
    socket?.destroy();
    return;
  }
  const { stream } = m;
  // Entries up to the service's head when it let go were written there; the log here may trail it
  // by nothing (batches are sent before the socket), so the stream goes on from its own position.
  if (compareLogPositions(m.head, log.head) > 0) log.advanceHead(m.head);
  const h = hub;
  const conn = new StreamConnection(
    {
      res: new SocketSink(socket, m.chunked),
      sub: stream.sub,
      keyId: stream.keyId,
      bufferBytes: settings.bufferBytes,
      limits: settings.limits,
      metrics,
      // Withdrawn markets are not in any book any more: a families filter lets their withdrawal through (as in the service).
      keyOf: () => undefined,
      // Odds entries come with their family numbers; an entry re-read after a renumbering finds none.
      familyIdOf: () => 0,
      head: () => log.head,
      continuity: m.continuity,
      now: serviceNow,
      onClose: (c) => {
        h.remove(c);
        send({ t: 'closed', keyId: c.keyId });
      },
      adopted: { openedAt: stream.openedAt, charged: stream.charged },
    },
    stream.lastPosition,
    stream.lastId,
  );
  socket.setNoDelay(true);
  h.add(conn);
}

function onLost(m: Extract<ToStreamProcess, { t: 'lost' }>): void {
  if (hub === null) return;
  hub.flush();
  for (const conn of hub.list()) {
    if (conn.continuity !== m.continuity && compareLogPositions(conn.lastPosition, m.before) < 0) conn.lost(m.before);
  }
}

/** Each counter's increase since the last report, sent to the service, which keeps the metrics. */
const reported = new Map<string, number>();
async function reportMetrics(): Promise<void> {
  const deltas: CounterDelta[] = [];
  for (const metric of await registry.getMetricsAsJSON()) {
    if (String(metric.type) !== 'counter') continue;
    for (const v of metric.values) {
      const labels = Object.fromEntries(Object.entries(v.labels).map(([k, x]) => [k, String(x)]));
      const id = `${metric.name}${JSON.stringify(labels)}`;
      const before = reported.get(id) ?? 0;
      if (v.value > before) deltas.push({ name: metric.name, labels, value: v.value - before });
      reported.set(id, v.value);
    }
  }
  if (deltas.length > 0) send({ t: 'metrics', deltas });
}

process.on('message', (m: ToStreamProcess, socket?: Socket) => {
  switch (m.t) {
    case 'init': {
      clock = m.clock;
      settings = { bufferBytes: m.bufferBytes, limits: m.limits };
      metrics = new StreamMetrics(registry, () => hub?.size ?? 0);
      hub = new StreamHub({
        log,
        metrics,
        now: serviceNow,
        worldNow,
        heartbeatMs: m.heartbeatMs,
        charge: (keyId) =>
          new Promise<boolean>((resolve) => {
            const id = nextCharge++;
            charges.set(id, resolve);
            send({ t: 'charge', id, keyId });
          }),
      });
      setInterval(() => void reportMetrics(), 1000).unref();
      break;
    }
    case 'clock':
      clock = m.clock;
      break;
    case 'batch': {
      onBatch(m);
      // Written now (the batch is one turn's entries already), then acknowledged.
      hub?.flush();
      send({ t: 'ack', seq: m.seq });
      break;
    }
    case 'shed':
      for (const conn of hub?.list() ?? []) {
        conn.close('overloaded', 'the stream process fell behind the feed; reconnect with Last-Event-ID');
      }
      break;
    case 'adopt':
      onAdopt(m, socket);
      break;
    case 'charged':
      charges.get(m.id)?.(m.ok);
      charges.delete(m.id);
      break;
    case 'lost':
      onLost(m);
      break;
    case 'close-all':
      hub?.closeAll();
      void reportMetrics().finally(() => send({ t: 'closed-all' }));
      break;
  }
});

// Stopped: exit cleanly (a profile is written, sockets closed by the system).
process.on('SIGTERM', () => process.exit(0));

// The service went away: nothing more will come, and the sockets are ours to close.
process.on('disconnect', () => {
  hub?.closeAll();
  setTimeout(() => process.exit(0), 200).unref();
});
