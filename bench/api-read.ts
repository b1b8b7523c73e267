// Sections `odds` and `list`: the service's hottest reads against a raw node:http server sending the same bytes.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { measureLoad, medianRun, serverMicrosPerRequest, type LoadRun } from './measure.js';
import { startRawBaseline, type RawHandle } from './raw-baseline.js';
import { check, type BenchContext, type ResultRow, type Section, type SectionResult } from './section.js';
import { startService, type ServiceHandle } from './service-process.js';
import { buildWorld, type World } from './world.js';

interface Endpoint {
  path: string;
  contentType: string;
  body: Buffer;
}

interface ApiReadSetup {
  service: ServiceHandle;
  raw: RawHandle;
  world: World['stats'];
  odds: Endpoint;
  list: Endpoint;
}

const LIST_PATH = '/v1/events?limit=200';

async function capture(service: ServiceHandle, path: string): Promise<Endpoint> {
  const res = await service.get(path);
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${res.body.toString('utf8', 0, 500)}`);
  return { path, contentType: res.contentType, body: res.body };
}

/** The service fed with the synthetic world, and the raw baseline holding its two payloads. */
async function setUp(ctx: BenchContext): Promise<ApiReadSetup> {
  const dir = join(ctx.tempDir, 'api-read');
  await mkdir(join(dir, 'data'), { recursive: true });

  const world = buildWorld({ now: Date.now() });
  ctx.log(
    `world: ${world.stats.events} events, deep event ${world.stats.deepMarkets} markets / ${world.stats.deepSelections} selections, ` +
      `${world.stats.totalMarkets} markets / ${world.stats.totalSelections} selections in all`,
  );

  const service = await startService(ctx.children, {
    dataDir: join(dir, 'data'),
    nodeArgs: ctx.settings.serviceNodeArgs,
  });
  ctx.log(`service up at ${service.baseUrl}; feeding ${world.messages.length} messages`);
  const started = Date.now();
  const accepted = await service.feed(world.messages);
  await service.settle();
  ctx.log(`fed ${accepted} messages and flushed to the store in ${Date.now() - started} ms`);

  const odds = await capture(service, `/v1/events/${encodeURIComponent(world.deepEventId)}/odds`);
  const list = await capture(service, LIST_PATH);
  const page = JSON.parse(list.body.toString('utf8')) as { events: unknown[] };
  if (page.events.length !== 200)
    throw new Error(`${LIST_PATH} returned ${page.events.length} events, expected a full page of 200`);

  const raw = await startRawBaseline(ctx.children, dir, [odds, list]);
  // Both servers must send the very same bytes, or the comparison says nothing.
  for (const e of [odds, list]) {
    const res = await fetch(`${raw.baseUrl}${e.path}`);
    const body = Buffer.from(await res.arrayBuffer());
    if (!body.equals(e.body) || res.headers.get('content-type') !== e.contentType) {
      throw new Error(`raw server does not answer ${e.path} with the service's bytes`);
    }
    const again = await service.get(e.path);
    if (!again.body.equals(e.body)) throw new Error(`the service's answer to ${e.path} changed between two requests`);
  }
  ctx.log(`raw baseline up at ${raw.baseUrl}`);
  return { service, raw, world: world.stats, odds, list };
}

/** Raw, service, raw, service…: interleaving spreads drift (thermal, noisy neighbours) over both. */
async function rawVersusService(
  ctx: BenchContext,
  section: string,
  setup: ApiReadSetup,
  endpoint: Endpoint,
): Promise<{ raw: ResultRow; service: ResultRow }> {
  const s = ctx.settings;
  const runs: Record<'raw' | 'service', LoadRun[]> = { raw: [], service: [] };
  const bases = { raw: setup.raw.baseUrl, service: setup.service.baseUrl };
  const pids = { raw: setup.raw.child.process.pid, service: setup.service.child.process.pid };
  for (let i = 1; i <= s.runs; i++) {
    for (const target of ['raw', 'service'] as const) {
      const run = await measureLoad({
        url: `${bases[target]}${endpoint.path}`,
        headers: { 'x-api-key': setup.service.apiKey },
        connections: s.connections,
        pipelining: s.pipelining,
        warmupSeconds: s.warmupSeconds,
        durationSeconds: s.durationSeconds,
        ...(pids[target] !== undefined ? { serverPid: pids[target] } : {}),
      });
      const problems = run.non2xx + run.errors + run.timeouts;
      ctx.log(
        `[${section}] ${target.padEnd(7)} run ${i}/${s.runs}: ${run.requestsPerSec.toFixed(1)} req/s, ` +
          `p50 ${run.latencyP50Ms} ms, p99 ${run.latencyP99Ms} ms, CPU server ${run.serverCpuPercent?.toFixed(0) ?? '?'}% client ${run.clientCpuPercent.toFixed(0)}%${problems > 0 ? `  (non-2xx ${run.non2xx}, errors ${run.errors}, timeouts ${run.timeouts})` : ''}`,
      );
      runs[target].push(run);
    }
  }
  const row = (target: 'raw' | 'service'): ResultRow => ({
    section,
    target,
    median: medianRun(runs[target]),
    runs: runs[target],
  });
  return { raw: row('raw'), service: row('service') };
}

function apiReadSection(
  name: string,
  description: string,
  pick: (s: ApiReadSetup) => Endpoint,
  threshold: number,
): Section {
  return {
    name,
    description,
    async run(ctx): Promise<SectionResult> {
      const setup = await ctx.shared('api-read', () => setUp(ctx));
      const endpoint = pick(setup);
      const { raw, service } = await rawVersusService(ctx, name, setup, endpoint);
      const ratio = service.median.requestsPerSec / raw.median.requestsPerSec;
      const notes = [
        `${name} payload: GET ${endpoint.path} = ${endpoint.body.length.toLocaleString('en-US')} bytes (${endpoint.contentType})`,
      ];
      const rawCost = serverMicrosPerRequest(raw.median);
      const serviceCost = serverMicrosPerRequest(service.median);
      if (rawCost !== null && serviceCost !== null) {
        notes.push(
          `${name} server CPU per request: service ${serviceCost.toFixed(0)} µs, raw ${rawCost.toFixed(0)} µs ` +
            `(${(serviceCost / rawCost).toFixed(1)}x)` +
            // A baseline far from one busy core was held back by the load generator (same machine), so
            // its req/s is a floor and the req/s ratio flatters the service.
            (raw.median.serverCpuPercent !== null && raw.median.serverCpuPercent < 70
              ? `; the raw server ran at ${raw.median.serverCpuPercent.toFixed(0)}% of a core, so the load generator capped the raw req/s`
              : ''),
        );
      }
      const failures = [raw, service].filter((r) => r.median.non2xx + r.median.errors + r.median.timeouts > 0);
      for (const r of failures) {
        notes.push(
          `WARNING: ${r.target} had ${r.median.non2xx} non-2xx, ${r.median.errors} errors, ${r.median.timeouts} timeouts`,
        );
      }
      return {
        rows: [raw, service],
        checks: [check(name, `${name}: service/raw`, ratio, '>=', threshold)],
        notes,
        data: {
          path: endpoint.path,
          payloadBytes: endpoint.body.length,
          contentType: endpoint.contentType,
          world: setup.world,
        },
      };
    },
  };
}

export const oddsSection = apiReadSection(
  'odds',
  'GET /v1/events/{id}/odds of a 1,000-market event, service vs raw node:http with the same bytes',
  (s) => s.odds,
  0.8,
);

export const listSection = apiReadSection(
  'list',
  `GET ${LIST_PATH} (a full page of 200 events), service vs raw node:http with the same bytes`,
  (s) => s.list,
  0.5,
);
