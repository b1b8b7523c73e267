// Section `capacity`: 11,000 deep events loaded, live prices ticking every 300 ms while the odds endpoint is under load.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type autocannon from 'autocannon';
import type { FeederMessage, FeederOptions } from './capacity-feeder.js';
import type { TickerMessage, TickerOptions, TickerResult } from './capacity-ticker.js';
import { TickBuilder } from './capacity-ticks.js';
import type { CapacityPlan, LiveBook } from './capacity-world.js';
import { envNumber, UsageError } from './env.js';
import { measureLoad, type LoadRun } from './measure.js';
import { readProcessMemory, type ProcessMemory } from './proc-status.js';
import { formatGrid } from './report.js';
import { check, type BenchContext, type Section, type SectionResult } from './section.js';
import { measureRestart } from './capacity-restart.js';
import { startService, type ServiceHandle } from './service-process.js';
import { runStreamSection } from './stream.js';

/** The issue's targets: a tick applied within 100 ms at the 99th percentile, the service within 2 GB. */
const TICK_P99_TARGET_MS = 100;
const RSS_TARGET_MB = 2048;
/** Issue 30: a restart of the full capacity world (11,000 events × 1,000 markets in the store) ready within this. */
const RESTART_TARGET_S = 30;
/** A tick sent this much after its slot (10% of the period) counts as late. */
const LATE_FRACTION = 0.1;
/** Large enough for any body this section sends (a tick of 1,000 events × 1,000 changes is ~35 MB). */
const FEED_BODY_LIMIT_BYTES = 256 * 1024 * 1024;
const MB = 1024 * 1024;

export const CAPACITY_USAGE = [
  'capacity:    BENCH_CAPACITY_EVENTS (default 11000), BENCH_CAPACITY_LIVE (default 1000),',
  '             BENCH_CAPACITY_MARKETS (per event, default 1000), BENCH_CAPACITY_SECONDS (ticking, default 30),',
  '             BENCH_CAPACITY_CHANGES (selections moved per live event per tick, default 100),',
  '             BENCH_CAPACITY_TICK_MS (default 300), BENCH_CAPACITY_CONNECTIONS (odds readers, default 20),',
  '             BENCH_CAPACITY_API_RATE (cap on odds req/s, default 0 = as fast as answered),',
  '             BENCH_CAPACITY_EVENTS_PER_BODY (load phase, default 20),',
  '             BENCH_CAPACITY_WARMUP (s of ticking before recording, default 5),',
  '             BENCH_CAPACITY_CODING (br or gzip: the odds readers ask for it; default none),',
  '             BENCH_CAPACITY_RESTART (1: after ticking, stop the service and time its restart on the same store until ready),',
  "             BENCH_CAPACITY_KEEP_STORE (a directory: with RESTART, the stopped world's store is copied there first),",
  '             BENCH_CAPACITY_STREAM_CLIENTS (default 0: none; n: the stream section run under this name)',
];

export interface CapacitySettings {
  events: number;
  live: number;
  markets: number;
  seconds: number;
  changes: number;
  tickMs: number;
  connections: number;
  apiRate: number;
  eventsPerBody: number;
  /**
   * Seconds of ticking and reading before anything is recorded. The first seconds after a quiet
   * start are a transient: every payload is refreshed for the first time into newly allocated
   * memory until the buffer pool has filled, and bodies waited 570-830 ms to be read then.
   */
  warmupSeconds: number;
  /** The Accept-Encoding of the odds readers ('' for none): every tick then costs a compression per read event. */
  coding: '' | 'br' | 'gzip';
}

function capacityCoding(): CapacitySettings['coding'] {
  const v = process.env.BENCH_CAPACITY_CODING ?? '';
  if (v === '' || v === 'br' || v === 'gzip') return v;
  throw new UsageError(`BENCH_CAPACITY_CODING must be br or gzip (or unset), got '${v}'`);
}

function capacitySettings(): CapacitySettings {
  const s: CapacitySettings = {
    events: envNumber('BENCH_CAPACITY_EVENTS', 11_000, 1, true),
    live: envNumber('BENCH_CAPACITY_LIVE', 1000, 1, true),
    markets: envNumber('BENCH_CAPACITY_MARKETS', 1000, 10, true),
    seconds: envNumber('BENCH_CAPACITY_SECONDS', 30, 1, false),
    changes: envNumber('BENCH_CAPACITY_CHANGES', 100, 1, true),
    tickMs: envNumber('BENCH_CAPACITY_TICK_MS', 300, 10, true),
    connections: envNumber('BENCH_CAPACITY_CONNECTIONS', 20, 1, true),
    apiRate: envNumber('BENCH_CAPACITY_API_RATE', 0, 0, true),
    eventsPerBody: envNumber('BENCH_CAPACITY_EVENTS_PER_BODY', 20, 1, true),
    warmupSeconds: envNumber('BENCH_CAPACITY_WARMUP', 5, 0, false),
    coding: capacityCoding(),
  };
  if (s.live > s.events)
    throw new UsageError(`BENCH_CAPACITY_LIVE (${s.live}) exceeds BENCH_CAPACITY_EVENTS (${s.events})`);
  if (s.markets > 5000)
    throw new UsageError('BENCH_CAPACITY_MARKETS must be <= 5000 (the feed limit of one markets message)');
  if (s.changes > 100_000)
    throw new UsageError('BENCH_CAPACITY_CHANGES must be <= 100000 (the feed limit of one odds message)');
  return s;
}

const mb = (bytes: number): number => bytes / MB;
const fmt = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const seconds = (ms: number): string => `${fmt(ms / 1000, 1)} s`;

/** Nearest-rank percentile (the value below which p% of the samples fall), as latency reports use. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Samples a process's memory every second; `max` covers every sample since `start`. */
class MemorySampler {
  readonly samples: Array<{ atMs: number; rssBytes: number }> = [];
  private timer: NodeJS.Timeout | null = null;
  private started = 0;
  last: ProcessMemory | null = null;

  constructor(private readonly pid: number) {}

  start(): void {
    this.started = Date.now();
    this.samples.length = 0;
    this.timer = setInterval(() => void this.sample(), 1000);
  }

  async sample(): Promise<ProcessMemory | null> {
    const m = await readProcessMemory(this.pid);
    if (m !== null) {
      this.last = m;
      if (this.timer !== null) this.samples.push({ atMs: Date.now() - this.started, rssBytes: m.rssBytes });
    }
    return m;
  }

  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    await this.sample();
    this.timer = null;
  }

  get maxRssBytes(): number {
    return Math.max(0, ...this.samples.map((s) => s.rssBytes));
  }
}

export interface HeapFigures {
  usedBytes: number;
  totalBytes: number;
  externalBytes: number;
}

/** The service's V8 heap (prom-client's default gauges): what of the RSS is JS objects, and what is not. */
async function heapOf(service: ServiceHandle): Promise<HeapFigures | null> {
  const m = await service.metrics();
  const used = m.get('nodejs_heap_size_used_bytes');
  const total = m.get('nodejs_heap_size_total_bytes');
  const external = m.get('nodejs_external_memory_bytes');
  if (used === undefined || total === undefined || external === undefined) return null;
  return { usedBytes: used, totalBytes: total, externalBytes: external };
}

interface PayloadFigures {
  builds: number;
  builtBytes: number;
  refreshes: number;
  poolAllocatedBytes: number;
  /** Compressed forms built and reused, and their bytes held (0 when the readers ask for none). */
  compressions: number;
  compressionReuses: number;
  compressedBytes: number;
}

/** The service's market payload counters (GET /metrics), to tell whole builds from in-place refreshes. */
async function payloadsOf(service: ServiceHandle): Promise<PayloadFigures | null> {
  const m = await service.metrics();
  const builds = m.get('read_model_payload_builds');
  const builtBytes = m.get('read_model_payload_built_bytes');
  const refreshes = m.get('read_model_payload_refreshes');
  const pool = m.get('read_model_payload_pool_allocated_bytes');
  if (builds === undefined || builtBytes === undefined || refreshes === undefined || pool === undefined) return null;
  return {
    builds,
    builtBytes,
    refreshes,
    poolAllocatedBytes: pool,
    compressions: m.get('read_model_payload_compressions') ?? 0,
    compressionReuses: m.get('read_model_payload_compression_reuses') ?? 0,
    compressedBytes: m.get('read_model_payload_compressed_bytes') ?? 0,
  };
}

/** What the payloads did between two readings (new memory is what makes V8 start full collections). */
function payloadText(a: PayloadFigures | null, b: PayloadFigures | null): string {
  if (a === null || b === null) return 'not in GET /metrics';
  return (
    `${fmt(b.refreshes - a.refreshes)} refreshed in place, ${fmt(b.builds - a.builds)} built whole ` +
    `(${fmt(mb(b.builtBytes - a.builtBytes))} MB); pool allocated ${fmt(mb(b.poolAllocatedBytes - a.poolAllocatedBytes))} MB` +
    (b.compressions > a.compressions
      ? `; ${fmt(b.compressions - a.compressions)} compressed forms built, ${fmt(b.compressionReuses - a.compressionReuses)} reused, ${fmt(mb(b.compressedBytes))} MB held at the end`
      : '')
  );
}

function heapText(h: HeapFigures | null): string {
  if (h === null) return 'not in GET /metrics';
  return `used ${fmt(mb(h.usedBytes))} MB of ${fmt(mb(h.totalBytes))} MB, external ${fmt(mb(h.externalBytes))} MB`;
}

async function memoryOf(pid: number): Promise<ProcessMemory> {
  const m = await readProcessMemory(pid);
  if (m === null) throw new Error(`cannot read /proc/${pid}/status: the capacity section needs Linux /proc`);
  return m;
}

/** The feeder worker, asked for one body at a time. */
function startFeeder(options: FeederOptions): { next(): Promise<FeederMessage>; stop(): Promise<number> } {
  const worker = new Worker(new URL('./capacity-feeder.js', import.meta.url), { workerData: options });
  const waiting: Array<(m: FeederMessage) => void> = [];
  worker.on('message', (m: FeederMessage) => waiting.shift()?.(m));
  worker.on('error', (err) => {
    for (const w of waiting.splice(0)) w({ kind: 'error', message: err.stack ?? err.message });
  });
  return {
    next() {
      return new Promise((resolve) => {
        waiting.push(resolve);
        worker.postMessage('next');
      });
    },
    stop: () => worker.terminate(),
  };
}

export interface LoadFigures {
  events: number;
  liveEvents: number;
  markets: number;
  selections: number;
  bodies: number;
  bytes: number;
  ms: number;
  eventsPerSec: number;
  /** Median POST round trip of one body (the service applies it before answering). */
  bodyP50Ms: number;
  bodyMaxMs: number;
  generateMs: number;
  rssAfterLoadBytes: number;
  peakRssAfterLoadBytes: number;
  settleMs: number;
  backlogAfterLoad: number;
  rssAfterSettleBytes: number;
}

async function loadWorld(
  ctx: BenchContext,
  service: ServiceHandle,
  pid: number,
  plan: CapacityPlan,
  eventsPerBody: number,
): Promise<{ live: LiveBook[]; figures: LoadFigures }> {
  const feeder = startFeeder({ plan, eventsPerBody });
  const live: LiveBook[] = [];
  const bodyMs: number[] = [];
  let events = 0;
  let markets = 0;
  let selections = 0;
  let bytes = 0;
  let generateMs = 0;
  const started = Date.now();
  let lastLog = started;
  try {
    let pending = feeder.next();
    for (;;) {
      const m = await pending;
      if (m.kind === 'error') throw new Error(`capacity feeder failed: ${m.message}`);
      if (m.kind === 'end') break;
      // The next body is generated on the worker while this one is uploaded and applied.
      pending = feeder.next();
      const sent = performance.now();
      await service.postNdjson(m.body);
      bodyMs.push(performance.now() - sent);
      events += m.events;
      markets += m.markets;
      selections += m.selections;
      bytes += m.body.length;
      generateMs += m.generateMs;
      live.push(...m.live);
      if (Date.now() - lastLog >= 10_000) {
        lastLog = Date.now();
        const mem = await readProcessMemory(pid);
        const elapsed = (Date.now() - started) / 1000;
        ctx.log(
          `[capacity] loaded ${fmt(events)}/${fmt(plan.events)} events in ${fmt(elapsed, 0)} s ` +
            `(${fmt(events / elapsed, 1)} events/s), service RSS ${mem === null ? '?' : fmt(mb(mem.rssBytes))} MB`,
        );
      }
    }
  } finally {
    await feeder.stop();
  }
  const ms = Date.now() - started;
  const afterLoad = await memoryOf(pid);
  ctx.log(
    `[capacity] load: ${fmt(events)} events (${fmt(markets)} markets, ${fmt(selections)} selections, ` +
      `${fmt(mb(bytes))} MB of NDJSON) in ${seconds(ms)} = ${fmt(events / (ms / 1000), 1)} events/s; ` +
      `RSS ${fmt(mb(afterLoad.rssBytes))} MB (peak ${fmt(mb(afterLoad.peakRssBytes))} MB)`,
  );

  // The measured phase must not inherit the load's store writes, or it measures them instead.
  const backlogAfterLoad = await service.backlog();
  const settleStarted = Date.now();
  lastLog = settleStarted;
  for (;;) {
    const pending = await service.backlog();
    if (pending === 0) break;
    if (Date.now() - settleStarted > 60 * 60_000)
      throw new Error(`write-behind backlog still ${pending} after an hour`);
    if (Date.now() - lastLog >= 10_000) {
      lastLog = Date.now();
      ctx.log(
        `[capacity] waiting for write-behind: backlog ${fmt(pending)} after ${seconds(Date.now() - settleStarted)}`,
      );
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const settleMs = Date.now() - settleStarted;
  const afterSettle = await memoryOf(pid);
  ctx.log(
    `[capacity] write-behind backlog ${fmt(backlogAfterLoad)} → 0 in ${seconds(settleMs)}; RSS ${fmt(mb(afterSettle.rssBytes))} MB`,
  );
  return {
    live,
    figures: {
      events,
      liveEvents: live.length,
      markets,
      selections,
      bodies: bodyMs.length,
      bytes,
      ms,
      eventsPerSec: events / (ms / 1000),
      bodyP50Ms: percentile(bodyMs, 50),
      bodyMaxMs: Math.max(0, ...bodyMs),
      generateMs,
      rssAfterLoadBytes: afterLoad.rssBytes,
      peakRssAfterLoadBytes: afterLoad.peakRssBytes,
      settleMs,
      backlogAfterLoad,
      rssAfterSettleBytes: afterSettle.rssBytes,
    },
  };
}

function runTicker(ctx: BenchContext, options: TickerOptions): Promise<TickerResult> {
  const worker = new Worker(new URL('./capacity-ticker.js', import.meta.url), { workerData: options });
  return new Promise<TickerResult>((resolve, reject) => {
    worker.on('message', (m: TickerMessage) => {
      if (m.kind === 'progress') {
        ctx.log(`[capacity] ${m.recorded} ticks recorded, last round trip ${fmt(m.lastRoundTripMs)} ms`);
      } else if (m.kind === 'done') resolve(m.result);
      else reject(new Error(`capacity ticker failed: ${m.message}`));
    });
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`capacity ticker exited (code ${code}) without a result`)));
  }).finally(() => void worker.terminate());
}

/** Readers of the odds of random live events: a new event id per request. */
function oddsRequests(live: LiveBook[]): autocannon.Request[] {
  const paths = live.map((e) => `/v1/events/${encodeURIComponent(e.eventId)}/odds`);
  return [
    {
      method: 'GET',
      setupRequest: (req) => ({ ...req, path: paths[Math.floor(Math.random() * paths.length)]! }),
    },
  ];
}

export interface TickFigures {
  recorded: number;
  slots: number;
  skippedSlots: number;
  late: number;
  maxLagMs: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Ticks whose round trip passed the p99 target. */
  overTarget: number;
  changesPerTick: number;
  bytesPerTick: number;
  buildP50Ms: number;
}

/** GETs the odds of every live event once, four at a time. */
async function warmOdds(service: ServiceHandle, live: readonly LiveBook[]): Promise<void> {
  let next = 0;
  const reader = async (): Promise<void> => {
    while (next < live.length) {
      const e = live[next++]!;
      const res = await service.get(`/v1/events/${encodeURIComponent(e.eventId)}/odds`);
      if (res.status !== 200) throw new Error(`GET odds of ${e.eventId} answered ${res.status}`);
    }
  };
  await Promise.all([reader(), reader(), reader(), reader()]);
}

function tickFigures(r: TickerResult, tickMs: number): TickFigures {
  const rt = r.ticks.map((t) => t.roundTripMs);
  return {
    recorded: r.ticks.length,
    slots: r.slots,
    skippedSlots: r.skippedSlots,
    late: r.ticks.filter((t) => t.lagMs > tickMs * LATE_FRACTION).length,
    maxLagMs: Math.max(0, ...r.ticks.map((t) => t.lagMs)),
    p50Ms: percentile(rt, 50),
    p90Ms: percentile(rt, 90),
    p99Ms: percentile(rt, 99),
    maxMs: Math.max(0, ...rt),
    overTarget: rt.filter((ms) => ms > TICK_P99_TARGET_MS).length,
    changesPerTick: r.ticks.length === 0 ? 0 : r.ticks.reduce((n, t) => n + t.changes, 0) / r.ticks.length,
    bytesPerTick: r.ticks.length === 0 ? 0 : r.ticks.reduce((n, t) => n + t.bytes, 0) / r.ticks.length,
    buildP50Ms: percentile(
      r.ticks.map((t) => t.buildMs),
      50,
    ),
  };
}

/** A loaded, settled capacity world, ready to tick. */
export interface CapacityWorld {
  s: CapacitySettings;
  service: ServiceHandle;
  pid: number;
  live: LiveBook[];
  load: LoadFigures;
  heapAfterLoad: HeapFigures | null;
  payloadBytes: number;
  atStartRssBytes: number;
  /** Marks a phase boundary, in seconds after the service was spawned (to cut a --cpu-prof profile). */
  mark(name: string): void;
  phases: Record<string, number>;
}

/** Starts the service, loads the capacity world through the feed and drains write-behind (each tick phase warms the odds cache). */
export async function prepareCapacity(
  ctx: BenchContext,
  name = 'capacity',
  extraEnv: Record<string, string> = {},
  over: Partial<CapacitySettings> = {},
): Promise<CapacityWorld> {
  const s = { ...capacitySettings(), ...over };
  const dir = join(ctx.tempDir, name);
  await mkdir(join(dir, 'data'), { recursive: true });
  const plan: CapacityPlan = { events: s.events, live: s.live, markets: s.markets, now: Date.now(), seed: 11 };
  ctx.log(
    `[${name}] ${fmt(s.events)} events (${fmt(s.live)} live), ${fmt(s.markets)} markets each; then ${s.seconds} s of ticks every ` +
      `${s.tickMs} ms (${fmt(s.changes)} changes per live event) with ${s.connections} connections reading live odds`,
  );

  // Phase boundaries relative to the service's start, to cut a `--cpu-prof` profile into phases.
  const spawnedAt = Date.now();
  const phases: Record<string, number> = {};
  const mark = (phase: string): void => {
    phases[phase] = (Date.now() - spawnedAt) / 1000;
  };
  const service = await startService(ctx.children, {
    dataDir: join(dir, 'data'),
    nodeArgs: ctx.settings.serviceNodeArgs,
    env: { FEED_BODY_LIMIT_BYTES: String(FEED_BODY_LIMIT_BYTES), ...extraEnv },
  });
  const pid = service.child.process.pid;
  if (pid === undefined) throw new Error('the service process has no pid');
  const atStart = await memoryOf(pid);
  ctx.log(`[${name}] service up at ${service.baseUrl}, RSS ${fmt(mb(atStart.rssBytes))} MB; loading`);

  mark('loadStart');
  const { live, figures: load } = await loadWorld(ctx, service, pid, plan, s.eventsPerBody);
  mark('settled');
  if (live.length === 0) throw new Error('no live event was loaded');

  const heapAfterLoad = await heapOf(service);
  ctx.log(`[${name}] V8 heap after load: ${heapText(heapAfterLoad)}`);
  const sample = await service.get(`/v1/events/${encodeURIComponent(live[0]!.eventId)}/odds`);
  if (sample.status !== 200)
    throw new Error(`GET odds of a live event answered ${sample.status}: ${sample.body.toString('utf8', 0, 300)}`);

  return {
    s,
    service,
    pid,
    live,
    load,
    heapAfterLoad,
    payloadBytes: sample.body.length,
    atStartRssBytes: atStart.rssBytes,
    mark,
    phases,
  };
}

/** One ticking window: ticks, odds readers, the service's memory and payload counters. */
export interface TickPhase {
  ticker: TickerResult;
  ticks: TickFigures;
  api: LoadRun;
  rssMax: number;
  end: ProcessMemory;
  backlogAtEnd: number;
  heapAtEnd: HeapFigures | null;
  payloads: string;
  memorySamples: Array<{ atMs: number; rssBytes: number }>;
  /** Wall-clock ms the recorded window opened and closed (after the warm-up). */
  windowFromMs: number;
  windowToMs: number;
}

/**
 * Brings a phase to the steady state of a running service: its live events fresh and their odds
 * payloads cached. Before any tick, or after a pause between phases, the live events have had no
 * data for longer than STALE_LOCK_SECONDS (the load alone takes minutes): the stale-feed lock has
 * fired, and the first tick lifts it, which rebuilds every payload whole (a change of every lock).
 * Warmed before that, the cache was dropped by the first tick and the readers rebuilt payloads
 * whole in the measured window (826 of 1,733 reads in a full stream run of 2026-11-27, 587 of
 * 4,150 at 1,000 events). So: one small tick (any data lifts the lock), then every live event's
 * odds read once.
 */
async function freshenAndWarm(ctx: BenchContext, w: CapacityWorld, label: string): Promise<void> {
  const { service, live } = w;
  await service.postNdjson(new TickBuilder(live, 1, 4049).next().body);
  const started = Date.now();
  await warmOdds(service, live);
  const stale = (await service.metrics()).get('feed_stale_locked_events') ?? 0;
  ctx.log(
    `[${label}] one tick to lift stale-feed locks, then each live event's odds read once (cache warm-up) in ` +
      `${fmt((Date.now() - started) / 1000)} s` +
      (stale > 0
        ? `; WARNING: ${fmt(stale)} events stale-locked again (the warm-up outlasted STALE_LOCK_SECONDS)`
        : ''),
  );
}

/**
 * Ticks for the settings' warm-up and duration while the odds are read. `onWindow` is told the
 * recorded window's wall-clock bounds as it starts (the stream clients count within it).
 */
export async function tickPhase(
  ctx: BenchContext,
  w: CapacityWorld,
  label: string,
  opts: { stampFrom?: number; seed?: number; onWindow?: (fromMs: number, toMs: number) => void } = {},
): Promise<TickPhase> {
  const { s, service, pid, live } = w;
  const memory = new MemorySampler(pid);
  memory.start();
  await freshenAndWarm(ctx, w, label);
  const warmupMs = s.warmupSeconds * 1000;
  ctx.log(`[${label}] ticking for ${s.seconds} s after ${s.warmupSeconds} s warm-up`);
  const payloadsAtStart = await payloadsOf(service);
  w.mark(`${label}Start`);
  const startedAt = performance.timeOrigin + performance.now();
  const windowFromMs = startedAt + warmupMs;
  const windowToMs = windowFromMs + s.seconds * 1000;
  opts.onWindow?.(windowFromMs, windowToMs);
  const [ticker, api] = await Promise.all([
    runTicker(ctx, {
      baseUrl: service.baseUrl,
      adminKey: service.adminKey,
      live,
      changesPerEvent: s.changes,
      periodMs: s.tickMs,
      warmupMs,
      durationMs: s.seconds * 1000,
      seed: opts.seed ?? 2024,
      ...(opts.stampFrom !== undefined ? { stampFrom: opts.stampFrom } : {}),
    }),
    measureLoad({
      url: service.baseUrl,
      headers: { 'x-api-key': service.apiKey, ...(s.coding === '' ? {} : { 'accept-encoding': s.coding }) },
      requests: oddsRequests(live),
      connections: s.connections,
      pipelining: 1,
      warmupSeconds: s.warmupSeconds,
      durationSeconds: s.seconds,
      serverPid: pid,
      ...(s.apiRate > 0 ? { overallRate: s.apiRate } : {}),
    }),
  ]);
  w.mark(`${label}End`);
  await memory.stop();
  const backlogAtEnd = await service.backlog();
  const heapAtEnd = await heapOf(service);
  const payloadsAtEnd = await payloadsOf(service);
  const end = await memoryOf(pid);
  return {
    ticker,
    ticks: tickFigures(ticker, s.tickMs),
    api,
    rssMax: Math.max(memory.maxRssBytes, end.rssBytes),
    end,
    backlogAtEnd,
    heapAtEnd,
    payloads: payloadText(payloadsAtStart, payloadsAtEnd),
    memorySamples: memory.samples,
    windowFromMs,
    windowToMs,
  };
}

/** The capacity report of one tick phase: the table, the checks and the JSON figures. */
export function capacityResult(w: CapacityWorld, p: TickPhase, name = 'capacity', extraNote = ''): SectionResult {
  const { s, load } = w;
  const { ticks, api } = p;
  const lines = capacityTable(s, load, ticks, api, {
    rssMax: p.rssMax,
    rssEnd: p.end.rssBytes,
    peak: p.end.peakRssBytes,
    backlogAtEnd: p.backlogAtEnd,
    heapAfterLoad: w.heapAfterLoad,
    heapAtEnd: p.heapAtEnd,
    payloads: p.payloads,
  });
  const problems = api.non2xx + api.errors + api.timeouts;
  const notes = [`${name}${s.coding === '' ? '' : ` (odds readers ask for ${s.coding})`}${extraNote}:\n${lines}`];
  if (problems > 0)
    notes.push(
      `WARNING: ${name} odds readers had ${api.non2xx} non-2xx, ${api.errors} errors, ${api.timeouts} timeouts`,
    );
  if (ticks.recorded === 0) notes.push(`WARNING: ${name} recorded no tick (the warm-up took the whole run?)`);
  return {
    rows: [{ section: name, target: 'service: live odds under ticks', median: api, runs: [api] }],
    checks: [
      check(name, `${name}: tick p99`, ticks.p99Ms, '<=', TICK_P99_TARGET_MS, 'ms'),
      check(name, `${name}: RSS max while ticking`, mb(p.rssMax), '<=', RSS_TARGET_MB, 'MB'),
      check(name, `${name}: RSS peak of the whole run (VmHWM)`, mb(p.end.peakRssBytes), '<=', RSS_TARGET_MB, 'MB'),
    ],
    notes,
    data: {
      settings: s,
      load,
      ticks,
      tickRecords: p.ticker.ticks,
      api: { payloadBytes: w.payloadBytes, connections: s.connections },
      memory: {
        atStartBytes: w.atStartRssBytes,
        maxWhileTickingBytes: p.rssMax,
        endBytes: p.end.rssBytes,
        peakBytes: p.end.peakRssBytes,
        heapAfterLoad: w.heapAfterLoad,
        heapAtEnd: p.heapAtEnd,
        samples: p.memorySamples,
      },
      backlogAtEnd: p.backlogAtEnd,
      phasesSecondsAfterSpawn: w.phases,
    },
  };
}

async function runCapacity(ctx: BenchContext): Promise<SectionResult> {
  const clients = envNumber('BENCH_CAPACITY_STREAM_CLIENTS', 0, 0, true);
  // With stream clients attached, the capacity run is the stream section's (ticks with and without them).
  if (clients > 0) return runStreamSection(ctx, { name: 'capacity', clients });
  const w = await prepareCapacity(ctx);
  const p = await tickPhase(ctx, w, 'ticking');
  ctx.log(
    `[capacity] phases, seconds after the service was spawned: ${Object.entries(w.phases)
      .map(([k, v]) => `${k} ${v.toFixed(1)}`)
      .join(', ')} (measured ticks from tickingStart + ${w.s.warmupSeconds} s warm-up)`,
  );
  const result = capacityResult(w, p);
  for (const l of (result.notes[0] ?? '').split('\n').slice(1)) ctx.log(`[capacity] ${l}`);
  if (envNumber('BENCH_CAPACITY_RESTART', 0, 0, true) > 0) {
    const restart = await measureRestart(ctx, w, 'capacity');
    result.data = { ...result.data, restart };
    result.checks.push(
      check('capacity', 'capacity: restart ready', restart.readyMs / 1000, '<=', RESTART_TARGET_S, 's'),
    );
    result.notes.push(
      `capacity restart: ready with ${fmt(restart.events)} events ${seconds(restart.readyMs)} after its spawn (listening after ${seconds(restart.listeningMs)}), RSS ${fmt(mb(restart.rssBytes))} MB`,
    );
  }
  return result;
}

function capacityTable(
  s: CapacitySettings,
  load: LoadFigures,
  t: TickFigures,
  api: LoadRun,
  m: {
    rssMax: number;
    rssEnd: number;
    peak: number;
    backlogAtEnd: number;
    heapAfterLoad: HeapFigures | null;
    heapAtEnd: HeapFigures | null;
    payloads: string;
  },
): string {
  const pass = (ok: boolean): string => (ok ? 'PASS' : 'MISS');
  const rows: string[][] = [
    [
      'world',
      `${fmt(load.events)} events (${fmt(load.liveEvents)} live), ${fmt(load.markets)} markets, ${fmt(load.selections)} selections`,
      '',
      '',
    ],
    [
      'load',
      `${seconds(load.ms)}, ${fmt(load.eventsPerSec, 1)} events/s, ${fmt(mb(load.bytes))} MB in ${fmt(load.bodies)} bodies`,
      '',
      '',
    ],
    [
      'load: body round trip',
      `p50 ${fmt(load.bodyP50Ms)} ms, max ${fmt(load.bodyMaxMs)} ms (${s.eventsPerBody} events a body)`,
      '',
      '',
    ],
    [
      'RSS after load',
      `${fmt(mb(load.rssAfterLoadBytes))} MB (peak so far ${fmt(mb(load.peakRssAfterLoadBytes))} MB)`,
      '',
      '',
    ],
    ['V8 heap after load', heapText(m.heapAfterLoad), '', ''],
    ['write-behind drain', `${seconds(load.settleMs)} (backlog ${fmt(load.backlogAfterLoad)} at end of load)`, '', ''],
    [
      'ticks',
      `${fmt(t.recorded)} of ${fmt(t.slots)} slots, ${fmt(t.changesPerTick)} changes, ${fmt(t.bytesPerTick / MB, 1)} MB each`,
      '',
      '',
    ],
    ['tick p50 / p90', `${fmt(t.p50Ms, 1)} / ${fmt(t.p90Ms, 1)} ms`, '', ''],
    ['tick p99', `${fmt(t.p99Ms, 1)} ms`, `<= ${TICK_P99_TARGET_MS} ms`, pass(t.p99Ms <= TICK_P99_TARGET_MS)],
    [
      'tick max',
      `${fmt(t.maxMs, 1)} ms (${fmt(t.overTarget)} of ${fmt(t.recorded)} ticks over ${TICK_P99_TARGET_MS} ms)`,
      '',
      '',
    ],
    [
      'behind schedule',
      `${fmt(t.late)} late (> ${fmt(s.tickMs * LATE_FRACTION)} ms), ${fmt(t.skippedSlots)} slots skipped, max lag ${fmt(t.maxLagMs)} ms`,
      '0',
      pass(t.late === 0 && t.skippedSlots === 0),
    ],
    ['API odds p50 / p99', `${fmt(api.latencyP50Ms)} / ${fmt(api.latencyP99Ms)} ms`, '', ''],
    [
      'API odds req/s',
      `${fmt(api.requestsPerSec, 1)} (${fmt(api.bytesPerSec / 1e6, 1)} MB/s, ${s.connections} connections)`,
      '',
      '',
    ],
    [
      'CPU while ticking',
      `service ${api.serverCpuPercent === null ? '?' : fmt(api.serverCpuPercent)}%, bench ${fmt(api.clientCpuPercent)}% (of one core)`,
      '',
      '',
    ],
    [
      'RSS max while ticking',
      `${fmt(mb(m.rssMax))} MB (end ${fmt(mb(m.rssEnd))} MB)`,
      `<= ${RSS_TARGET_MB} MB`,
      pass(mb(m.rssMax) <= RSS_TARGET_MB),
    ],
    ['RSS peak (VmHWM)', `${fmt(mb(m.peak))} MB`, `<= ${RSS_TARGET_MB} MB`, pass(mb(m.peak) <= RSS_TARGET_MB)],
    ['V8 heap at end', heapText(m.heapAtEnd), '', ''],
    ['payloads while ticking', m.payloads, '', ''],
    ['write-behind at end', `backlog ${fmt(m.backlogAtEnd)}`, '', ''],
  ];
  return formatGrid(['capacity', 'figure', 'target', ''], rows, () => true);
}

export const capacitySection: Section = {
  name: 'capacity',
  description:
    '11,000 events × 1,000 markets (1,000 live) loaded, then live odds ticks every 300 ms while the odds endpoint is read (minutes)',
  optIn: true,
  run: runCapacity,
};
