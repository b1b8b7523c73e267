// Sections `settlement-page` (SQLite) and `settlement-page-pg` (PostgreSQL): GET /v1/settlements over a million stored entries, with a raw baseline.
import type autocannon from 'autocannon';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { encodeCursor } from '../src/api/routes/settlements.js';
import { waitForHttp } from './children.js';
import { envNumber } from './env.js';
import { measureLoad, medianRun, serverMicrosPerRequest, type LoadOptions, type LoadRun } from './measure.js';
import { startRawBaseline } from './raw-baseline.js';
import { check, type BenchContext, type ResultRow, type Section, type SectionResult } from './section.js';
import { startService, type ServiceHandle } from './service-process.js';
import { buildSettlementFixture, type SettlementFixture } from './settlement-page-data.js';
import { buildPostgresSettlementFixture } from './settlement-page-pg-data.js';

const FIRST_PAGE = '/v1/settlements?limit=50';
const PAGE_SIZE = 50;
const CURSORS = 200;
const ID_LISTS = 200;
const IDS_PER_LIST = 20;
const TARGET_P99_MS = 10;

interface Page {
  settlements: Array<{ event_id: string }>;
  total: number;
  has_more: boolean;
  next_cursor: string | null;
}

async function page(service: ServiceHandle, path: string): Promise<{ page: Page; body: Buffer; contentType: string }> {
  const res = await service.get(path);
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${res.body.toString('utf8', 0, 500)}`);
  return { page: JSON.parse(res.body.toString('utf8')) as Page, body: res.body, contentType: res.contentType };
}

/** A request that picks one of `paths` at random each time it is sent. */
function anyOf(paths: readonly string[]): autocannon.Request[] {
  return [
    { method: 'GET', setupRequest: (req) => ({ ...req, path: paths[Math.floor(Math.random() * paths.length)]! }) },
  ];
}

type Engine = 'sqlite' | 'postgres';

const SECTION_OF: Record<Engine, string> = { sqlite: 'settlement-page', postgres: 'settlement-page-pg' };

/** The PostgreSQL server the `-pg` section fills a throwaway schema on. */
const BENCH_DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

function logRun(ctx: BenchContext, name: string, target: string, i: number, runs: number, run: LoadRun): void {
  const problems = run.non2xx + run.errors + run.timeouts;
  ctx.log(
    `[${name}] ${target.padEnd(12)} run ${i}/${runs}: ${run.requestsPerSec.toFixed(1)} req/s, ` +
      `p50 ${run.latencyP50Ms} ms, p99 ${run.latencyP99Ms} ms, CPU server ${run.serverCpuPercent?.toFixed(0) ?? '?'}% client ${run.clientCpuPercent.toFixed(0)}%` +
      (problems > 0 ? `  (non-2xx ${run.non2xx}, errors ${run.errors}, timeouts ${run.timeouts})` : ''),
  );
}

async function run(ctx: BenchContext, engine: Engine): Promise<SectionResult> {
  const name = SECTION_OF[engine];
  const started = Date.now();
  const entries = envNumber('BENCH_SETTLEMENT_ENTRIES', 1_000_000, 1_000, true);
  // A lone client by default: p99 is then the page's own cost. With many connections on this
  // single-threaded server it measures the queue (≈ connections / throughput) instead; at 50 the raw
  // server alone is far past 10 ms.
  const connections = envNumber('BENCH_SETTLEMENT_CONNECTIONS', 1, 1, true);
  const dir = join(ctx.tempDir, 'settlement-page');
  const dataDir = join(dir, 'data');
  await mkdir(dataDir, { recursive: true });

  ctx.log(`building ${entries.toLocaleString('en-US')} settlement entries (${engine})…`);
  const samples = CURSORS + ID_LISTS * IDS_PER_LIST;
  let fixture: SettlementFixture;
  let env: Record<string, string> = {};
  let dropSchema = async (): Promise<void> => {};
  if (engine === 'postgres') {
    const pgFixture = await buildPostgresSettlementFixture(BENCH_DATABASE_URL, entries, samples);
    fixture = pgFixture;
    env = { DATABASE_URL: pgFixture.url };
    dropSchema = pgFixture.drop;
  } else {
    fixture = await buildSettlementFixture(dataDir, entries, samples);
  }
  try {
    return await measure(ctx, { name, dir, dataDir, fixture, env, entries, connections, started });
  } finally {
    await dropSchema();
  }
}

interface Measured {
  name: string;
  dir: string;
  dataDir: string;
  fixture: SettlementFixture;
  /** Extra service environment (DATABASE_URL for the PostgreSQL run). */
  env: Record<string, string>;
  entries: number;
  connections: number;
  started: number;
}

/** Starts the service on the filled store, checks what it answers, then measures the page targets. */
async function measure(
  ctx: BenchContext,
  { name, dir, dataDir, fixture, env, entries, connections, started }: Measured,
): Promise<SectionResult> {
  const mb = fixture.fileBytes / 1024 / 1024;
  const storeName = env.DATABASE_URL === undefined ? 'store file' : 'settlements table with indexes';
  ctx.log(`built in ${fixture.seconds.toFixed(1)} s, ${storeName} ${mb.toFixed(0)} MB`);

  const bootStarted = Date.now();
  const service = await startService(ctx.children, { dataDir, env, nodeArgs: ctx.settings.serviceNodeArgs });
  await waitForHttp(`${service.baseUrl}/readyz`, service.child);
  const bootSeconds = (Date.now() - bootStarted) / 1000;
  ctx.log(`service up at ${service.baseUrl} in ${bootSeconds.toFixed(1)} s`);

  // Cursors exactly as the API issues them, at random depths of the feed.
  const cursorSamples = fixture.samples.slice(0, CURSORS);
  const deepPaths = cursorSamples.map((s) => `${FIRST_PAGE}&cursor=${encodeCursor('ended_at', s.endedAt, s.eventId)}`);
  const idSamples = fixture.samples.slice(CURSORS);
  const idPaths = Array.from(
    { length: ID_LISTS },
    (_, i) =>
      `/v1/settlements?event_ids=${idSamples
        .slice(i * IDS_PER_LIST, (i + 1) * IDS_PER_LIST)
        .map((s) => encodeURIComponent(s.eventId))
        .join(',')}`,
  );

  // What is measured must be what was meant: full pages, real cursors, every filtered id found.
  const first = await page(service, FIRST_PAGE);
  if (first.page.settlements.length !== PAGE_SIZE || first.page.total !== entries) {
    throw new Error(
      `${FIRST_PAGE}: ${first.page.settlements.length} entries of total ${first.page.total}, expected ${PAGE_SIZE} of ${entries}`,
    );
  }
  for (const path of deepPaths.slice(0, 2)) {
    const p = await page(service, path);
    if (p.page.settlements.length === 0) throw new Error(`deep page ${path} is empty`);
  }
  for (const path of idPaths.slice(0, 5)) {
    const p = await page(service, path);
    if (p.page.settlements.length !== IDS_PER_LIST) {
      throw new Error(`event_ids page has ${p.page.settlements.length} entries, expected ${IDS_PER_LIST}`);
    }
  }
  const again = await page(service, FIRST_PAGE);
  if (!again.body.equals(first.body)) throw new Error(`the answer to ${FIRST_PAGE} changed between two requests`);

  const raw = await startRawBaseline(ctx.children, dir, [
    { path: FIRST_PAGE, contentType: first.contentType, body: first.body },
  ]);
  const rawCheck = await fetch(`${raw.baseUrl}${FIRST_PAGE}`);
  if (!Buffer.from(await rawCheck.arrayBuffer()).equals(first.body))
    throw new Error('the raw server does not answer the same bytes');

  const s = ctx.settings;
  const servicePid = service.child.process.pid;
  const rawPid = raw.child.process.pid;
  const base: Omit<LoadOptions, 'url'> = {
    headers: { 'x-api-key': service.apiKey },
    connections,
    pipelining: s.pipelining,
    warmupSeconds: s.warmupSeconds,
    durationSeconds: s.durationSeconds,
  };
  const targets = {
    raw: { ...base, url: `${raw.baseUrl}${FIRST_PAGE}`, ...(rawPid !== undefined ? { serverPid: rawPid } : {}) },
    first: {
      ...base,
      url: `${service.baseUrl}${FIRST_PAGE}`,
      ...(servicePid !== undefined ? { serverPid: servicePid } : {}),
    },
    deep: {
      ...base,
      url: service.baseUrl,
      requests: anyOf(deepPaths),
      ...(servicePid !== undefined ? { serverPid: servicePid } : {}),
    },
    ids: {
      ...base,
      url: service.baseUrl,
      requests: anyOf(idPaths),
      ...(servicePid !== undefined ? { serverPid: servicePid } : {}),
    },
  } satisfies Record<string, LoadOptions>;
  const labels: Record<keyof typeof targets, string> = {
    raw: 'raw (first page bytes)',
    first: 'first page (limit=50)',
    deep: `deep pages (${CURSORS} cursors)`,
    ids: `event_ids (${IDS_PER_LIST} ids)`,
  };
  const runs: Record<keyof typeof targets, LoadRun[]> = { raw: [], first: [], deep: [], ids: [] };
  for (let i = 1; i <= s.runs; i++) {
    // Interleaved, so drift touches every target alike; deep pages last, so a slow query still
    // running when its run ends delays the raw server's run, not the service's next one.
    for (const target of ['raw', 'first', 'ids', 'deep'] as const) {
      const r = await measureLoad(targets[target]);
      logRun(ctx, name, target, i, s.runs, r);
      runs[target].push(r);
    }
  }
  const rows: ResultRow[] = (['raw', 'first', 'deep', 'ids'] as const).map((t) => ({
    section: name,
    target: labels[t],
    median: medianRun(runs[t]),
    runs: runs[t],
  }));
  const [rawRow, firstRow, deepRow, idsRow] = rows as [ResultRow, ResultRow, ResultRow, ResultRow];
  // Sections after this one get the CPU, the memory and the 1.4 GB of disk back.
  await ctx.children.stop(service.child);
  await ctx.children.stop(raw.child);
  await rm(dir, { recursive: true, force: true });
  const seconds = (Date.now() - started) / 1000;

  const notes = [
    `${name}: ${entries.toLocaleString('en-US')} entries built in ${fixture.seconds.toFixed(1)} s, ${storeName} ${mb.toFixed(0)} MB; ` +
      `service ready in ${bootSeconds.toFixed(1)} s; ${connections} connections`,
    `${name}: first page ${first.body.length.toLocaleString('en-US')} bytes; service/raw req/s = ` +
      `${(firstRow.median.requestsPerSec / rawRow.median.requestsPerSec).toFixed(2)}`,
  ];
  const rawCost = serverMicrosPerRequest(rawRow.median);
  const cost = (r: ResultRow): string => serverMicrosPerRequest(r.median)?.toFixed(0) ?? '?';
  notes.push(
    `${name}: server CPU per request: first page ${cost(firstRow)} µs, deep ${cost(deepRow)} µs, event_ids ${cost(idsRow)} µs, raw ${rawCost?.toFixed(0) ?? '?'} µs`,
  );
  for (const r of rows) {
    const bad = r.median.non2xx + r.median.errors + r.median.timeouts;
    if (bad > 0)
      notes.push(
        `WARNING: ${r.target}: ${r.median.non2xx} non-2xx, ${r.median.errors} errors, ${r.median.timeouts} timeouts`,
      );
  }
  notes.push(`${name}: section took ${seconds.toFixed(1)} s`);
  return {
    rows,
    checks: [
      check(name, `${name}: first page p99`, firstRow.median.latencyP99Ms, '<=', TARGET_P99_MS, 'ms'),
      check(name, `${name}: deep pages p99`, deepRow.median.latencyP99Ms, '<=', TARGET_P99_MS, 'ms'),
    ],
    notes,
    data: {
      entries,
      buildSeconds: fixture.seconds,
      fileBytes: fixture.fileBytes,
      bootSeconds,
      connections,
      firstPageBytes: first.body.length,
      seconds,
    },
  };
}

export const settlementPageSection: Section = {
  name: SECTION_OF.sqlite,
  // About two minutes and a 1.4 GB store file: too much for every `npm run bench`.
  optIn: true,
  description: 'GET /v1/settlements with 1,000,000 stored entries: first page, deep cursors, event_ids; raw baseline',
  run: (ctx) => run(ctx, 'sqlite'),
};

export const settlementPagePgSection: Section = {
  name: SECTION_OF.postgres,
  // Needs a PostgreSQL server (BENCH_DATABASE_URL) and a few minutes to fill it.
  optIn: true,
  description: 'the same over PostgreSQL (BENCH_DATABASE_URL; a throwaway schema, dropped after)',
  run: (ctx) => run(ctx, 'postgres'),
};
