// Sections `history` (odds history: storage per million changes and query p99 over an hour of capacity ticks, embedded and PostgreSQL) and `history-tick` (capacity tick p99 with history on vs off).
import { randomBytes } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import Database from 'better-sqlite3';
import pg from 'pg';
import { prepareCapacity, tickPhase, type CapacityWorld, type TickPhase } from './capacity.js';
import { TickBuilder } from './capacity-ticks.js';
import { envNumber } from './env.js';
import { measureLoad, median, medianRun, type LoadRun } from './measure.js';
import { formatGrid } from './report.js';
import { check, type BenchContext, type ResultRow, type Section, type SectionResult } from './section.js';
import { prng } from './world.js';

const BENCH_DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** Issue 16: the capacity tick with history on no worse than without by more than 10%. */
const TICK_RATIO_TARGET = 1.1;
/** World time between two ticks of the generated history (the capacity world's period). */
const WORLD_TICK_MS = 300;
const SAMPLE_PATHS = 200;
const MB = 1024 * 1024;
const fmt = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

export const HISTORY_USAGE = [
  'history:     BENCH_HISTORY_EVENTS (live events with history, default 1000), BENCH_HISTORY_MINUTES (world time, default 60),',
  '             BENCH_HISTORY_FLUSH_MS (write-behind interval while generating, default 50), BENCH_HISTORY_CONNECTIONS (default 1),',
  '             BENCH_HISTORY_ENGINES (embedded,postgres; default both), BENCH_CAPACITY_MARKETS and BENCH_CAPACITY_CHANGES apply',
  'history-tick: the capacity knobs; BENCH_RUNS pairs of tick phases, history off then on',
];

interface HistorySettings {
  events: number;
  minutes: number;
  flushMs: number;
  connections: number;
  engines: Array<'embedded' | 'postgres'>;
}

function historySettings(): HistorySettings {
  const engines = (process.env.BENCH_HISTORY_ENGINES ?? 'embedded,postgres')
    .split(',')
    .filter((e): e is 'embedded' | 'postgres' => e === 'embedded' || e === 'postgres');
  return {
    events: envNumber('BENCH_HISTORY_EVENTS', 1000, 1, true),
    minutes: envNumber('BENCH_HISTORY_MINUTES', 60, 0.1, false),
    flushMs: envNumber('BENCH_HISTORY_FLUSH_MS', 50, 10, true),
    connections: envNumber('BENCH_HISTORY_CONNECTIONS', 1, 1, true),
    engines: engines.length > 0 ? engines : ['embedded'],
  };
}

async function dirBytes(dir: string): Promise<number> {
  let n = 0;
  for (const name of await readdir(dir)) n += (await stat(join(dir, name))).size;
  return n;
}

interface StorageFigures {
  rows: number;
  /** Compressed chunk bytes (the `data` column). */
  dataBytes: number;
  /** The table and its indexes as stored (SQLite dbstat pages, or pg_total_relation_size). */
  tableBytes: number;
}

/** odds_history as the store holds it, read beside the running service (SQLite WAL readers do not block it). */
async function storageOf(engine: 'embedded' | 'postgres', where: string): Promise<StorageFigures> {
  if (engine === 'embedded') {
    const db = new Database(join(where, 'store.sqlite'), { readonly: true, fileMustExist: true });
    try {
      const r = db.prepare('select count(*) as n, coalesce(sum(length(data)), 0) as b from odds_history').get() as {
        n: number;
        b: number;
      };
      let tableBytes = NaN;
      try {
        const t = db
          .prepare(
            "select coalesce(sum(pgsize), 0) as b from dbstat where name in ('odds_history', 'odds_history_by_time', 'odds_history_by_age') or name like 'sqlite_autoindex_odds_history%'",
          )
          .get() as { b: number };
        tableBytes = t.b;
      } catch {
        // dbstat is not compiled in: the section falls back to the data directory's growth.
      }
      return { rows: r.n, dataBytes: r.b, tableBytes };
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: where });
  await client.connect();
  try {
    const r = await client.query<{ n: string; b: string; t: string }>(
      "select count(*) as n, coalesce(sum(octet_length(data)), 0) as b, pg_total_relation_size('odds_history') as t from odds_history",
    );
    const row = r.rows[0]!;
    return { rows: Number(row.n), dataBytes: Number(row.b), tableBytes: Number(row.t) };
  } finally {
    await client.end();
  }
}

/** A throwaway schema on the PostgreSQL server; the service's own migrations create its tables. */
async function pgSchema(): Promise<{ url: string; drop: () => Promise<void> }> {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string): Promise<void> => {
    const c = new pg.Client({ connectionString: BENCH_DATABASE_URL });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`create schema ${schema}`);
  const url = new URL(BENCH_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { url: url.toString(), drop: () => admin(`drop schema if exists ${schema} cascade`) };
}

interface Generated {
  ticks: number;
  events: number;
  changes: number;
  seconds: number;
  worldStart: number;
  worldEnd: number;
  tickP50Ms: number;
  tickP99Ms: number;
  drainSeconds: number;
}

/**
 * Feeds `minutes` of world time of capacity ticks (one every 300 ms of `ts`) through the admin feed
 * as fast as the service takes them, one body in flight, then waits for write-behind to store it all.
 */
async function generateHistory(
  ctx: BenchContext,
  w: CapacityWorld,
  minutes: number,
  label: string,
): Promise<Generated> {
  const ticks = Math.round((minutes * 60_000) / WORLD_TICK_MS);
  const worldEnd = Math.floor(Date.now() / 1000) * 1000;
  const worldStart = worldEnd - ticks * WORLD_TICK_MS;
  const builder = new TickBuilder(w.live, w.s.changes, 16);
  const roundTrips: number[] = [];
  let changes = 0;
  const started = Date.now();
  let lastLog = started;
  let next = builder.next({ ts: new Date(worldStart).toISOString() });
  for (let k = 0; k < ticks; k++) {
    const tick = next;
    const sent = performance.now();
    const posted = w.service.postNdjson(tick.body);
    // The next body is built while this one is in flight (the upload itself is asynchronous).
    if (k + 1 < ticks) next = builder.next({ ts: new Date(worldStart + (k + 1) * WORLD_TICK_MS).toISOString() });
    await posted;
    roundTrips.push(performance.now() - sent);
    changes += tick.changes;
    if (Date.now() - lastLog >= 10_000) {
      lastLog = Date.now();
      const s = (Date.now() - started) / 1000;
      ctx.log(
        `[${label}] ${fmt(k + 1)}/${fmt(ticks)} ticks (${fmt(((k + 1) * WORLD_TICK_MS) / 60_000, 1)} min of world time) in ${fmt(s)} s, ` +
          `${fmt(changes / s)} changes/s, write-behind backlog ${fmt(await w.service.backlog())}`,
      );
    }
  }
  const seconds = (Date.now() - started) / 1000;
  const drainStarted = Date.now();
  await w.service.settle(60 * 60_000);
  const sorted = roundTrips.sort((a, b) => a - b);
  const at = (p: number): number =>
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
  return {
    ticks,
    events: w.live.length,
    changes,
    seconds,
    worldStart,
    worldEnd,
    tickP50Ms: at(50),
    tickP99Ms: at(99),
    drainSeconds: (Date.now() - drainStarted) / 1000,
  };
}

/** Requests that pick one of the given paths at random. */
function randomPaths(paths: string[]): autocannon.Request[] {
  return [
    { method: 'GET', setupRequest: (req) => ({ ...req, path: paths[Math.floor(Math.random() * paths.length)]! }) },
  ];
}

interface EngineFigures {
  engine: string;
  generated: Generated;
  storage: StorageFigures;
  dirGrowthBytes: number;
  bytesPerMillion: number;
  targets: Array<{ target: string; runs: LoadRun[]; median: LoadRun }>;
  load1: number;
}

async function historyEngine(
  ctx: BenchContext,
  engine: 'embedded' | 'postgres',
  h: HistorySettings,
): Promise<EngineFigures> {
  const label = `history-${engine}`;
  const schema = engine === 'postgres' ? await pgSchema() : null;
  try {
    const env: Record<string, string> = {
      FLUSH_INTERVAL_MS: String(h.flushMs),
      // History times are an hour in the past: no stale-feed lock may fire on that clock.
      STALE_LOCK_SECONDS: '0',
      ODDS_HISTORY_DAYS: '30',
      ...(schema !== null ? { DATABASE_URL: schema.url } : {}),
    };
    const w = await prepareCapacity(ctx, label, env, { events: h.events, live: h.events });
    const dataDir = join(ctx.tempDir, label, 'data');
    const where = schema?.url ?? dataDir;
    const before = await storageOf(engine, where);
    const dirBefore = await dirBytes(dataDir);
    ctx.log(
      `[${label}] generating ${h.minutes} min of world time: ${fmt(h.events)} events × ${w.s.changes} changes every 300 ms`,
    );
    const generated = await generateHistory(ctx, w, h.minutes, label);
    const after = await storageOf(engine, where);
    const dirGrowthBytes = (await dirBytes(dataDir)) - dirBefore;
    const storage: StorageFigures = {
      rows: after.rows - before.rows,
      dataBytes: after.dataBytes - before.dataBytes,
      tableBytes: after.tableBytes - before.tableBytes,
    };
    const stored = Number.isFinite(storage.tableBytes) ? storage.tableBytes : dirGrowthBytes;
    const bytesPerMillion = (stored / generated.changes) * 1e6;
    ctx.log(
      `[${label}] ${fmt(generated.changes)} changes in ${fmt(generated.seconds)} s (${fmt(generated.changes / generated.seconds)}/s; ` +
        `drain ${fmt(generated.drainSeconds, 1)} s): ${fmt(storage.rows)} chunks, ${fmt(storage.dataBytes / MB)} MB of chunks, ` +
        `${fmt(stored / MB)} MB stored = ${fmt(bytesPerMillion / MB, 2)} MB per million changes`,
    );

    // Paths over the generated hour: random events, random instants.
    const random = prng(61);
    const ids = w.live.map((e) => encodeURIComponent(e.eventId));
    const id = (): string => ids[Math.floor(random() * ids.length)]!;
    const instant = (): string =>
      new Date(generated.worldStart + Math.floor(random() * (generated.worldEnd - generated.worldStart))).toISOString();
    const targets: Array<{ target: string; paths: string[] }> = [
      {
        target: 'odds (current, cached): baseline',
        paths: Array.from({ length: SAMPLE_PATHS }, () => `/v1/events/${id()}/odds`),
      },
      {
        target: 'odds/history (first page)',
        paths: Array.from({ length: SAMPLE_PATHS }, () => `/v1/events/${id()}/odds/history`),
      },
      {
        target: 'odds/history?from= (a page at a random instant)',
        paths: Array.from({ length: SAMPLE_PATHS }, () => `/v1/events/${id()}/odds/history?from=${instant()}`),
      },
      {
        target: 'odds?at= (a random instant)',
        paths: Array.from({ length: SAMPLE_PATHS }, () => `/v1/events/${id()}/odds?at=${instant()}`),
      },
    ];
    for (const t of targets) {
      const res = await w.service.get(t.paths[0]!);
      if (res.status !== 200)
        throw new Error(`${t.paths[0]} answered ${res.status}: ${res.body.toString('utf8', 0, 300)}`);
      if (t.target.includes('history') && !/"odds":/.test(res.body.toString('utf8', 0, 5000)))
        throw new Error(`${t.paths[0]} has no change in its page`);
    }
    const runs = new Map<string, LoadRun[]>(targets.map((t) => [t.target, []]));
    const load1: number[] = [];
    for (let run = 0; run < ctx.settings.runs; run++) {
      for (const t of targets) {
        const r = await measureLoad({
          url: w.service.baseUrl,
          headers: { 'x-api-key': w.service.apiKey },
          requests: randomPaths(t.paths),
          connections: h.connections,
          pipelining: 1,
          warmupSeconds: ctx.settings.warmupSeconds,
          durationSeconds: ctx.settings.durationSeconds,
          serverPid: w.pid,
        });
        if (r.non2xx + r.errors > 0) ctx.log(`[${label}] WARNING ${t.target}: ${r.non2xx} non-2xx, ${r.errors} errors`);
        runs.get(t.target)!.push(r);
        load1.push(loadavg()[0]!);
        ctx.log(
          `[${label}] ${t.target}: ${fmt(r.requestsPerSec, 1)} req/s, p50 ${r.latencyP50Ms} / p99 ${r.latencyP99Ms} ms`,
        );
      }
    }
    await ctx.children.stop(w.service.child);
    return {
      engine,
      generated,
      storage,
      dirGrowthBytes,
      bytesPerMillion,
      targets: targets.map((t) => ({
        target: t.target,
        runs: runs.get(t.target)!,
        median: medianRun(runs.get(t.target)!),
      })),
      load1: median(load1),
    };
  } finally {
    await schema?.drop();
  }
}

async function runHistory(ctx: BenchContext): Promise<SectionResult> {
  const h = historySettings();
  const figures: EngineFigures[] = [];
  for (const engine of h.engines) figures.push(await historyEngine(ctx, engine, h));
  const rows: ResultRow[] = [];
  const notes: string[] = [];
  // No targets: the issue asks for these figures to be measured and documented.
  const checks: SectionResult['checks'] = [];
  for (const f of figures) {
    const g = f.generated;
    for (const t of f.targets)
      rows.push({ section: `history-${f.engine}`, target: t.target, median: t.median, runs: t.runs });
    const base = f.targets[0]!.median;
    const grid = formatGrid(
      [`history, ${f.engine}`, 'figure'],
      [
        [
          'world',
          `${fmt(g.changes)} changes: ${fmt(g.ticks)} ticks of ${fmt(g.changes / g.ticks)} (${fmt((g.worldEnd - g.worldStart) / 60_000, 1)} min of world time)`,
        ],
        [
          'generated',
          `in ${fmt(g.seconds)} s (${fmt((g.worldEnd - g.worldStart) / 1000 / g.seconds, 1)}× real time), tick round trip p50 ${fmt(g.tickP50Ms, 1)} / p99 ${fmt(g.tickP99Ms, 1)} ms, drain ${fmt(g.drainSeconds, 1)} s`,
        ],
        [
          'stored',
          `${fmt(f.storage.rows)} chunks (${fmt(g.changes / Math.max(1, f.storage.rows))} changes each; ~${fmt((g.changes / g.ticks / g.events) * (500 / WORLD_TICK_MS))} an event at real time), chunks ${fmt(f.storage.dataBytes / MB)} MB, table and indexes ${Number.isFinite(f.storage.tableBytes) ? fmt(f.storage.tableBytes / MB) : '?'} MB, data dir +${fmt(f.dirGrowthBytes / MB)} MB`,
        ],
        [
          'bytes per million changes',
          `${fmt(f.bytesPerMillion / MB, 2)} MB (chunks alone ${fmt(((f.storage.dataBytes / g.changes) * 1e6) / MB, 2)} MB, ${fmt(f.storage.dataBytes / g.changes, 2)} bytes a change)`,
        ],
        ...f.targets.map((t) => [
          t.target,
          `p50 ${fmt(t.median.latencyP50Ms)} / p99 ${fmt(t.median.latencyP99Ms)} ms, ${fmt(t.median.requestsPerSec, 1)} req/s (${fmt(t.median.requestsPerSec / base.requestsPerSec, 3)}× the baseline)`,
        ]),
        ['load average (1 min), median', fmt(f.load1, 1)],
      ],
      () => true,
    );
    notes.push(grid);
    for (const l of grid.split('\n')) ctx.log(`[history] ${l}`);
  }
  return { rows, checks, notes, data: { settings: h, engines: figures } };
}

async function runHistoryTick(ctx: BenchContext): Promise<SectionResult> {
  // Both worlds stay up and the phases alternate, so a change of the machine's load hits both alike.
  const off = await prepareCapacity(ctx, 'history-off', { ODDS_HISTORY_DAYS: '0' });
  const on = await prepareCapacity(ctx, 'history-on', { ODDS_HISTORY_DAYS: '30' });
  const phases: Array<{ off: TickPhase; on: TickPhase; load1: number }> = [];
  for (let run = 0; run < ctx.settings.runs; run++) {
    const l0 = loadavg()[0]!;
    const a = await tickPhase(ctx, off, `history-off${run}`);
    const b = await tickPhase(ctx, on, `history-on${run}`);
    phases.push({ off: a, on: b, load1: (l0 + loadavg()[0]!) / 2 });
    ctx.log(
      `[history-tick] run ${run + 1}: tick p99 off ${fmt(a.ticks.p99Ms, 1)} ms, on ${fmt(b.ticks.p99Ms, 1)} ms; ` +
        `RSS max off ${fmt(a.rssMax / MB)} MB, on ${fmt(b.rssMax / MB)} MB; load ${fmt(loadavg()[0]!, 1)}`,
    );
  }
  const m = (f: (p: (typeof phases)[number]) => number): number => median(phases.map(f));
  const ratio = m((p) => p.on.ticks.p99Ms / p.off.ticks.p99Ms);
  const grid = formatGrid(
    ['history-tick', 'history off', 'history on'],
    [
      [
        'tick p50',
        `${fmt(
          m((p) => p.off.ticks.p50Ms),
          1,
        )} ms`,
        `${fmt(
          m((p) => p.on.ticks.p50Ms),
          1,
        )} ms`,
      ],
      [
        'tick p99',
        `${fmt(
          m((p) => p.off.ticks.p99Ms),
          1,
        )} ms`,
        `${fmt(
          m((p) => p.on.ticks.p99Ms),
          1,
        )} ms (${fmt(ratio, 2)}×)`,
      ],
      [
        'tick max',
        `${fmt(
          m((p) => p.off.ticks.maxMs),
          1,
        )} ms`,
        `${fmt(
          m((p) => p.on.ticks.maxMs),
          1,
        )} ms`,
      ],
      [
        'late ticks, skipped slots',
        `${fmt(m((p) => p.off.ticks.late))}, ${fmt(m((p) => p.off.ticks.skippedSlots))}`,
        `${fmt(m((p) => p.on.ticks.late))}, ${fmt(m((p) => p.on.ticks.skippedSlots))}`,
      ],
      [
        'service CPU',
        `${fmt(m((p) => p.off.api.serverCpuPercent ?? NaN))}%`,
        `${fmt(m((p) => p.on.api.serverCpuPercent ?? NaN))}%`,
      ],
      ['RSS max while ticking', `${fmt(m((p) => p.off.rssMax) / MB)} MB`, `${fmt(m((p) => p.on.rssMax) / MB)} MB`],
      ['write-behind backlog at end', fmt(m((p) => p.off.backlogAtEnd)), fmt(m((p) => p.on.backlogAtEnd))],
      ['load average (1 min) per run', phases.map((p) => fmt(p.load1, 1)).join(', '), ''],
    ],
    () => true,
  );
  for (const l of grid.split('\n')) ctx.log(`[history-tick] ${l}`);
  return {
    rows: [
      {
        section: 'history-tick',
        target: 'odds readers, history off',
        median: medianRun(phases.map((p) => p.off.api)),
        runs: phases.map((p) => p.off.api),
      },
      {
        section: 'history-tick',
        target: 'odds readers, history on',
        median: medianRun(phases.map((p) => p.on.api)),
        runs: phases.map((p) => p.on.api),
      },
    ],
    checks: [
      check('history-tick', 'history-tick: tick p99 history on / off', ratio, '<=', TICK_RATIO_TARGET),
      check(
        'history-tick',
        'history-tick: tick p99 with history on',
        m((p) => p.on.ticks.p99Ms),
        '<=',
        100,
        'ms',
      ),
    ],
    notes: [grid],
    data: {
      runs: phases.map((p) => ({
        off: p.off.ticks,
        on: p.on.ticks,
        rssOff: p.off.rssMax,
        rssOn: p.on.rssMax,
        load1: p.load1,
      })),
    },
  };
}

export const historySection: Section = {
  name: 'history',
  description:
    'odds history: an hour of capacity ticks generated through the feed, storage per million changes, odds/history and odds?at= p99 (embedded and PostgreSQL; minutes)',
  optIn: true,
  run: runHistory,
};

export const historyTickSection: Section = {
  name: 'history-tick',
  description: 'the capacity tick with odds history on vs off, two services in one run (minutes)',
  optIn: true,
  run: runHistoryTick,
};
