// Section `stream`: 1,000 SSE clients with mixed filters on one node while the capacity world ticks; latency from the producer's send, and a raw node:http replay of the same bytes.
import { mkdir } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { Child } from './children.js';
import { prepareCapacity, tickPhase, percentile, capacityResult, type TickPhase } from './capacity.js';
import { envNumber } from './env.js';
import { median, processCpuSeconds } from './measure.js';
import { formatGrid } from './report.js';
import { check, type BenchContext, type Section, type SectionResult } from './section.js';
import { StreamClientPool, type PoolReport } from './stream-client-pool.js';
import { streamClientMix } from './stream-mix.js';
import { StampClock } from './stream-stamp.js';

/** The issue's targets: a change reaches a client within 250 ms (p99), and the service delivers ≥ 0.7× what raw node:http does. */
const LATENCY_P99_TARGET_MS = 250;
const BYTES_RATIO_TARGET = 0.7;
/** Ticks with the clients attached may cost this much more than without (issue: no worse than today). */
const TICK_RATIO_TARGET = 1.1;
/** Buckets (tick periods) of each client's bytes recorded for the raw replay. */
const RECORD_BUCKETS = 10;
const RAW_PATH = join(import.meta.dirname, 'stream-raw-server.js');

export const STREAM_USAGE = [
  'stream:      the capacity knobs, and BENCH_STREAM_CLIENTS (default 1000), BENCH_STREAM_PROCESSES (client processes, default 4);',
  '             BENCH_RUNS pairs of phases (clients on the service, then on raw node:http while the service ticks alone)',
];

/** Latency of every stamp that arrived: ms from the tick's POST to the client's receipt. */
export function stampLatencies(stamps: readonly number[], clock: StampClock): number[] {
  const out: number[] = [];
  for (let i = 0; i + 1 < stamps.length; i += 2) {
    const ms = clock.latency(stamps[i]!, stamps[i + 1]!);
    if (ms !== null) out.push(ms);
  }
  return out;
}

interface StreamRun {
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
  stamps: number;
  eventsPerSec: number;
  bytesPerSec: number;
  rawBytesPerSec: number;
  rawEventsPerSec: number;
  bytesRatio: number;
  serviceCpuPercent: number | null;
  /** The same service's CPU while it ticks and serves the odds readers without the stream clients. */
  serviceCpuWithoutPercent: number | null;
  /**
   * CPU the streams cost per MB delivered (service CPU with clients minus without, in ms per MB),
   * and raw node:http's for the same bytes.
   */
  streamCpuMsPerMb: number | null;
  rawCpuMsPerMb: number | null;
  rawCpuPercent: number | null;
  clientCpuPercent: number;
  rssMaxMb: number;
  tickP99WithMs: number;
  tickP99WithoutMs: number;
  tickP50WithMs: number;
  tickP50WithoutMs: number;
  tickRatio: number;
  conflated: number;
  closedEarly: number;
  load1: number;
  byKind: PoolReport['byKind'];
}

function startRaw(ctx: BenchContext, dir: string, bucketMs: number): Promise<{ baseUrl: string; child: Child }> {
  const child = ctx.children.spawn('stream raw server', process.execPath, [RAW_PATH, dir, String(bucketMs)], {
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.process.once('message', (m: { port?: number }) =>
      resolve({ baseUrl: `http://127.0.0.1:${Number(m.port)}`, child }),
    );
    void child.exited.then((how) =>
      reject(new Error(`stream raw server exited (${how}):\n${child.output.toString()}`)),
    );
  });
}

const fmt = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const MB = 1024 * 1024;

export async function runStreamSection(
  ctx: BenchContext,
  opts: { name: string; clients?: number } = { name: 'stream' },
): Promise<SectionResult> {
  const name = opts.name;
  const clients = opts.clients ?? envNumber('BENCH_STREAM_CLIENTS', 1000, 1, true);
  const processes = envNumber('BENCH_STREAM_PROCESSES', 4, 1, true);
  const w = await prepareCapacity(ctx, name);
  const specs = streamClientMix(w.live, clients, 15);
  const recordDir = join(ctx.tempDir, name, 'recording');
  await mkdir(recordDir, { recursive: true });
  const pool = new StreamClientPool(ctx.children, processes);
  const seconds = w.s.seconds;
  let raw: { baseUrl: string; child: Child } | null = null;
  const runs: StreamRun[] = [];
  let lastWith: TickPhase | null = null;
  try {
    for (let run = 0; run < ctx.settings.runs; run++) {
      // Clients on the service: ticks, stamps, bytes; the first run records what each client got.
      const record = run === 0 ? { dir: recordDir, bucketMs: w.s.tickMs, buckets: RECORD_BUCKETS, fromMs: 0 } : null;
      await pool.open('service', w.service.baseUrl, w.service.apiKey, specs, record);
      ctx.log(`[${name}] ${fmt(clients)} stream clients connected to the service (run ${run + 1})`);
      await untilMoved(ctx, w.service, clients, name);
      const load1Before = loadavg()[0]!;
      const withClients = await tickPhase(ctx, w, `stream${run}`, {
        stampFrom: 0,
        onWindow: (from, to) => pool.window(from, to),
      });
      const onService = await pool.report();
      await pool.close();
      lastWith = withClients;

      // The same clients on raw node:http replaying their recorded bytes, while the service ticks without them.
      raw ??= await startRaw(ctx, recordDir, w.s.tickMs);
      await pool.open('raw', raw.baseUrl, '', specs, null);
      const rawPid = raw.child.process.pid ?? 0;
      let rawCpuBefore: number | null = null;
      const without = await tickPhase(ctx, w, `raw${run}`, {
        onWindow: (from, to) => {
          pool.window(from, to);
          setTimeout(() => (rawCpuBefore = processCpuSeconds(rawPid)), Math.max(0, from - Date.now()));
        },
      });
      const rawCpuAfter = processCpuSeconds(rawPid);
      const onRaw = await pool.report();
      await pool.close();

      const clock = new StampClock();
      for (const st of withClients.ticker.stamps) clock.record(st.seq, st.sentAtMs);
      const latencies = stampLatencies(onService.stamps, clock);
      const sum = (r: PoolReport, f: (k: PoolReport['byKind'][string]) => number): number =>
        Object.values(r.byKind).reduce((n, k) => n + f(k), 0);
      const bytesPerSec = sum(onService, (k) => k.bytes) / seconds;
      const rawCpuPercent =
        rawCpuBefore === null || rawCpuAfter === null ? null : ((rawCpuAfter - rawCpuBefore) / seconds) * 100;
      const rawBytesPerSec = sum(onRaw, (k) => k.bytes) / seconds;
      const r: StreamRun = {
        latencyP50Ms: percentile(latencies, 50),
        latencyP99Ms: percentile(latencies, 99),
        latencyMaxMs: latencies.reduce((a, b) => Math.max(a, b), 0),
        stamps: latencies.length,
        eventsPerSec: sum(onService, (k) => k.events) / seconds,
        bytesPerSec,
        rawBytesPerSec,
        rawEventsPerSec: sum(onRaw, (k) => k.events) / seconds,
        bytesRatio: rawBytesPerSec > 0 ? bytesPerSec / rawBytesPerSec : NaN,
        serviceCpuPercent: withClients.api.serverCpuPercent,
        serviceCpuWithoutPercent: without.api.serverCpuPercent,
        streamCpuMsPerMb: cpuMsPerMb(
          withClients.api.serverCpuPercent === null || without.api.serverCpuPercent === null
            ? null
            : withClients.api.serverCpuPercent - without.api.serverCpuPercent,
          bytesPerSec,
        ),
        rawCpuMsPerMb: cpuMsPerMb(rawCpuPercent, rawBytesPerSec),
        rawCpuPercent,
        clientCpuPercent: (onService.cpuSeconds / seconds) * 100,
        rssMaxMb: withClients.rssMax / MB,
        tickP99WithMs: withClients.ticks.p99Ms,
        tickP99WithoutMs: without.ticks.p99Ms,
        tickP50WithMs: withClients.ticks.p50Ms,
        tickP50WithoutMs: without.ticks.p50Ms,
        tickRatio: withClients.ticks.p99Ms / without.ticks.p99Ms,
        conflated: sum(onService, (k) => k.conflated),
        closedEarly: onService.closedEarly,
        load1: (load1Before + loadavg()[0]!) / 2,
        byKind: onService.byKind,
      };
      if (onService.closeReasons.length > 0)
        ctx.log(`[${name}] closed by the service: ${onService.closeReasons.join('; ')}`);
      ctx.log(
        `[${name}] run ${run + 1}: latency p50 ${fmt(r.latencyP50Ms)} / p99 ${fmt(r.latencyP99Ms)} ms over ${fmt(r.stamps)} stamps; ` +
          `${fmt(r.eventsPerSec)} events/s, ${fmt(r.bytesPerSec / MB, 1)} MB/s (raw ${fmt(r.rawBytesPerSec / MB, 1)} MB/s, ${fmt(r.bytesRatio, 2)}x); ` +
          `tick p99 ${fmt(r.tickP99WithMs, 1)} ms with clients, ${fmt(r.tickP99WithoutMs, 1)} without; load ${fmt(r.load1, 1)}`,
      );
      runs.push(r);
    }
  } finally {
    await pool.stop();
    if (raw !== null) await ctx.children.stop(raw.child);
  }

  const m = (f: (r: StreamRun) => number): number => median(runs.map(f));
  const mn = (f: (r: StreamRun) => number | null): number | null =>
    runs.some((r) => f(r) === null) ? null : median(runs.map((r) => f(r) ?? 0));
  const cpu = (v: number | null): string => (v === null ? '?' : `${fmt(v)}%`);
  const kinds = runs[0]?.byKind ?? {};
  const rows: string[][] = [
    [
      'clients',
      `${fmt(clients)} in ${processes} processes: ${Object.entries(kinds)
        .map(([k, f]) => `${f.clients} ${k}`)
        .join(', ')}`,
    ],
    [
      'change → client latency p50 / p99',
      `${fmt(m((r) => r.latencyP50Ms))} / ${fmt(m((r) => r.latencyP99Ms))} ms (target p99 <= ${LATENCY_P99_TARGET_MS})`,
    ],
    ['latency max, stamps timed', `${fmt(m((r) => r.latencyMaxMs))} ms, ${fmt(m((r) => r.stamps))} per run`],
    ['events delivered', `${fmt(m((r) => r.eventsPerSec))}/s (raw replay ${fmt(m((r) => r.rawEventsPerSec))}/s)`],
    [
      'bytes delivered',
      `${fmt(m((r) => r.bytesPerSec) / MB, 1)} MB/s, raw node:http ${fmt(m((r) => r.rawBytesPerSec) / MB, 1)} MB/s: ${fmt(
        m((r) => r.bytesRatio),
        2,
      )}x (target >= ${BYTES_RATIO_TARGET})`,
    ],
    [
      'service CPU, RSS max',
      `${cpu(mn((r) => r.serviceCpuPercent))} of one core (ticks, odds readers and streams), ${fmt(m((r) => r.rssMaxMb))} MB`,
    ],
    [
      'CPU per MB delivered',
      `streams ${mn((r) => r.streamCpuMsPerMb) === null ? '?' : fmt(mn((r) => r.streamCpuMsPerMb) ?? 0, 1)} ms (service CPU with clients ${cpu(mn((r) => r.serviceCpuPercent))} minus without ${cpu(mn((r) => r.serviceCpuWithoutPercent))}), raw node:http ${mn((r) => r.rawCpuMsPerMb) === null ? '?' : fmt(mn((r) => r.rawCpuMsPerMb) ?? 0, 1)} ms`,
    ],
    [
      'raw server CPU, clients CPU',
      `${cpu(mn((r) => r.rawCpuPercent))}, ${fmt(m((r) => r.clientCpuPercent))}% (client processes, service phase)`,
    ],
    [
      'tick p50 / p99 with clients',
      `${fmt(
        m((r) => r.tickP50WithMs),
        1,
      )} / ${fmt(
        m((r) => r.tickP99WithMs),
        1,
      )} ms`,
    ],
    [
      'tick p50 / p99 without',
      `${fmt(
        m((r) => r.tickP50WithoutMs),
        1,
      )} / ${fmt(
        m((r) => r.tickP99WithoutMs),
        1,
      )} ms (same service, clients on raw): ${fmt(
        m((r) => r.tickRatio),
        2,
      )}x`,
    ],
    ['conflated odds events, streams closed', `${fmt(m((r) => r.conflated))}, ${fmt(m((r) => r.closedEarly))}`],
    ['load average (1 min) per run', runs.map((r) => fmt(r.load1, 1)).join(', ')],
  ];
  for (const [kind, f] of Object.entries(kinds)) {
    rows.push([
      `  ${kind}`,
      `${fmt(f.bytes / seconds / f.clients / 1024, 1)} KB/s, ${fmt(f.events / seconds / f.clients, 1)} events/s per client`,
    ]);
  }
  const table = formatGrid([name, 'figure (median of runs)'], rows, () => true);
  for (const l of table.split('\n')) ctx.log(`[${name}] ${l}`);
  const result: SectionResult = {
    rows: [],
    checks: [
      check(
        name,
        `${name}: change-to-client latency p99`,
        m((r) => r.latencyP99Ms),
        '<=',
        LATENCY_P99_TARGET_MS,
        'ms',
      ),
      check(
        name,
        `${name}: delivered bytes/s, service/raw`,
        m((r) => r.bytesRatio),
        '>=',
        BYTES_RATIO_TARGET,
      ),
      check(
        name,
        `${name}: tick p99 with/without stream clients`,
        m((r) => r.tickRatio),
        '<=',
        TICK_RATIO_TARGET,
      ),
    ],
    notes: [`${name} (${fmt(clients)} stream clients):\n${table}`],
    data: { runs, clients, processes },
  };
  if (lastWith !== null) {
    const cap = capacityResult(w, lastWith, name, ' with the stream clients (last run)');
    result.rows.push(...cap.rows);
    result.checks.push(...cap.checks);
    result.notes.push(...cap.notes);
    result.data = { ...result.data, capacity: cap.data };
  }
  return result;
}

export const streamSection: Section = {
  name: 'stream',
  description:
    '1,000 SSE clients with mixed filters while the capacity world ticks: change-to-client latency, events and bytes/s against raw node:http replaying the same bytes (minutes)',
  optIn: true,
  run: (ctx) => runStreamSection(ctx),
};

/**
 * STREAM_PROCESS=on: streams move to the stream process once caught up, one socket at a time;
 * the measured window starts once they all have (at most two minutes), so it measures where they
 * stay rather than the move.
 */
async function untilMoved(
  ctx: BenchContext,
  service: { metrics(): Promise<Map<string, number>> },
  clients: number,
  name: string,
): Promise<void> {
  const started = Date.now();
  let held = (await service.metrics()).get('stream_process_connections');
  if (held === undefined) return;
  while (held < clients && Date.now() - started < 120_000) {
    await new Promise((r) => setTimeout(r, 500));
    held = (await service.metrics()).get('stream_process_connections') ?? 0;
  }
  ctx.log(
    `[${name}] ${fmt(held)} of ${fmt(clients)} streams moved to the stream process in ${fmt((Date.now() - started) / 1000, 1)} s`,
  );
}

/** Milliseconds of CPU per MB delivered, from a CPU share (% of one core) and bytes a second. */
function cpuMsPerMb(cpuPercent: number | null, bytesPerSec: number): number | null {
  if (cpuPercent === null || !(bytesPerSec > 0)) return null;
  return ((cpuPercent / 100) * 1000) / (bytesPerSec / MB);
}
