// Sections `odds` and `list` (and their br and gzip runs): the hottest reads against a raw node:http server sending the same bytes.
import { mkdir } from 'node:fs/promises';
import { rawGet } from './http-get.js';
import { join } from 'node:path';
import { measureLoad, medianRun, serverMicrosPerRequest, type LoadRun } from './measure.js';
import { startRawBaseline, type RawHandle } from './raw-baseline.js';
import { check, type BenchContext, type ResultRow, type Section, type SectionResult } from './section.js';
import { startService, type ServiceHandle } from './service-process.js';
import { buildWorld, type World } from './world.js';

type Coding = 'identity' | 'br' | 'gzip';
const CODINGS: readonly Coding[] = ['identity', 'br', 'gzip'];

interface Endpoint {
  path: string;
  /** The Accept-Encoding sent (identity: none) and the Content-Encoding answered. */
  coding: Coding;
  contentType: string;
  body: Buffer;
}

type Codings = Record<Coding, Endpoint>;

interface ApiReadSetup {
  service: ServiceHandle;
  raw: RawHandle;
  world: World['stats'];
  odds: Codings;
  list: Codings;
}

const LIST_PATH = '/v1/events?limit=200';

/** Request headers of a coding's runs: an Accept-Encoding naming it alone. */
const codingHeaders = (coding: Coding): Record<string, string> =>
  coding === 'identity' ? {} : { 'accept-encoding': coding };

async function capture(service: ServiceHandle, path: string, coding: Coding): Promise<Endpoint> {
  const res = await service.get(path, codingHeaders(coding));
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${res.body.toString('utf8', 0, 500)}`);
  const answered = res.contentEncoding === '' ? 'identity' : res.contentEncoding;
  if (answered !== coding) throw new Error(`GET ${path} asked for ${coding}, answered ${answered}`);
  return { path, coding, contentType: res.contentType, body: res.body };
}

async function captureCodings(service: ServiceHandle, path: string): Promise<Codings> {
  const [identity, br, gzip] = await Promise.all(CODINGS.map((c) => capture(service, path, c)));
  return { identity: identity!, br: br!, gzip: gzip! };
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

  const odds = await captureCodings(service, `/v1/events/${encodeURIComponent(world.deepEventId)}/odds`);
  const list = await captureCodings(service, LIST_PATH);
  const page = JSON.parse(list.identity.body.toString('utf8')) as { events: unknown[] };
  if (page.events.length !== 200)
    throw new Error(`${LIST_PATH} returned ${page.events.length} events, expected a full page of 200`);

  const endpoints = [odds, list].flatMap((c) => CODINGS.map((coding) => c[coding]));
  // The raw server answers each coding with the service's own compressed bytes, kept beforehand.
  const raw = await startRawBaseline(
    ctx.children,
    dir,
    endpoints.map((e) => ({
      path: e.path,
      contentType: e.contentType,
      body: e.body,
      ...(e.coding === 'identity' ? {} : { acceptEncoding: e.coding, contentEncoding: e.coding }),
    })),
  );
  // Both servers must send the very same bytes, or the comparison says nothing.
  for (const e of endpoints) {
    const res = await rawGet(`${raw.baseUrl}${e.path}`, codingHeaders(e.coding));
    if (!res.body.equals(e.body) || res.contentType !== e.contentType) {
      throw new Error(`raw server does not answer ${e.path} (${e.coding}) with the service's bytes`);
    }
    const again = await service.get(e.path, codingHeaders(e.coding));
    if (!again.body.equals(e.body))
      throw new Error(`the service's answer to ${e.path} (${e.coding}) changed between two requests`);
  }
  ctx.log(`raw baseline up at ${raw.baseUrl}`);
  return { service, raw, world: world.stats, odds, list };
}

/** The service fed with the world and its captured answers, built once for every section that reads it. */
export function apiReadSetup(ctx: BenchContext): Promise<ApiReadSetup> {
  return ctx.shared('api-read', () => setUp(ctx));
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
        headers: { 'x-api-key': setup.service.apiKey, ...codingHeaders(endpoint.coding) },
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

interface ReadSectionOptions {
  name: string;
  description: string;
  pick: (s: ApiReadSetup) => Codings;
  coding: Coding;
  /** service req/s / raw req/s at least. */
  threshold: number;
  /** Coded bytes / identity bytes at most (coded sections). */
  maxBytesRatio?: number;
  optIn?: boolean;
}

function apiReadSection(o: ReadSectionOptions): Section {
  const { name, description, pick, coding, threshold } = o;
  return {
    name,
    description,
    ...(o.optIn === true ? { optIn: true } : {}),
    async run(ctx): Promise<SectionResult> {
      const setup = await apiReadSetup(ctx);
      const codings = pick(setup);
      const endpoint = codings[coding];
      const { raw, service } = await rawVersusService(ctx, name, setup, endpoint);
      const ratio = service.median.requestsPerSec / raw.median.requestsPerSec;
      const identityBytes = codings.identity.body.length;
      const bytesRatio = endpoint.body.length / identityBytes;
      const notes = [
        `${name} payload: GET ${endpoint.path} = ${endpoint.body.length.toLocaleString('en-US')} bytes (${endpoint.contentType}` +
          (coding === 'identity'
            ? ')'
            : `, ${coding}: 1/${(1 / bytesRatio).toFixed(1)} of the ${identityBytes.toLocaleString('en-US')} identity bytes)`),
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
      const checks = [check(name, `${name}: service/raw`, ratio, '>=', threshold)];
      if (o.maxBytesRatio !== undefined) {
        checks.push(check(name, `${name}: bytes/identity`, bytesRatio, '<=', o.maxBytesRatio));
      }
      return {
        rows: [raw, service],
        checks,
        notes,
        data: {
          path: endpoint.path,
          coding,
          payloadBytes: endpoint.body.length,
          identityBytes,
          contentType: endpoint.contentType,
          world: setup.world,
        },
      };
    },
  };
}

export const oddsSection = apiReadSection({
  name: 'odds',
  description: 'GET /v1/events/{id}/odds of a 1,000-market event, service vs raw node:http with the same bytes',
  pick: (s) => s.odds,
  coding: 'identity',
  threshold: 0.8,
});

export const listSection = apiReadSection({
  name: 'list',
  description: `GET ${LIST_PATH} (a full page of 200 events), service vs raw node:http with the same bytes`,
  pick: (s) => s.list,
  coding: 'identity',
  threshold: 0.5,
});

/** The coded runs: the service's cached compressed form against raw node:http sending those very bytes. */
export const codedReadSections: Section[] = (['br', 'gzip'] as const).flatMap((coding) => [
  apiReadSection({
    name: `odds-${coding}`,
    description: `the odds section with Accept-Encoding: ${coding} (raw node:http sends the service's ${coding} bytes)`,
    pick: (s) => s.odds,
    coding,
    threshold: 0.8,
    maxBytesRatio: 1 / 8,
  }),
  apiReadSection({
    name: `list-${coding}`,
    description: `the list section with Accept-Encoding: ${coding} (raw node:http sends the service's ${coding} bytes)`,
    pick: (s) => s.list,
    coding,
    threshold: 0.5,
    optIn: true,
  }),
]);
