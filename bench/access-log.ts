// Section `access-log`: the hot odds endpoint with the access log on vs off (two services, same world, same run).
import { mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { measureLoad, medianRun, serverMicrosPerRequest, type LoadRun } from './measure.js';
import { check, type BenchContext, type ResultRow, type Section, type SectionResult } from './section.js';
import { startService, type ServiceHandle } from './service-process.js';
import { buildWorld } from './world.js';

const TARGETS = ['off', 'on'] as const;
type Target = (typeof TARGETS)[number];

interface Node {
  service: ServiceHandle;
  logFile: string;
}

/**
 * Both services run at LOG_LEVEL=info (the default) with stdout sent to a file, as a production
 * log goes to a real file or pipe; only ACCESS_LOG differs. The "off" file holds the start-up lines.
 */
async function startNode(ctx: BenchContext, target: Target): Promise<Node> {
  const dir = join(ctx.tempDir, `access-log-${target}`);
  await mkdir(join(dir, 'data'), { recursive: true });
  const logFile = join(dir, 'service.log');
  const service = await startService(ctx.children, {
    dataDir: join(dir, 'data'),
    nodeArgs: ctx.settings.serviceNodeArgs,
    env: { LOG_LEVEL: 'info', ACCESS_LOG: target },
    stdoutFile: logFile,
  });
  return { service, logFile };
}

async function accessLines(file: string): Promise<{ lines: number; bytes: number }> {
  const text = await readFile(file, 'utf8');
  let lines = 0;
  for (const line of text.split('\n')) if (line.includes('"msg":"request"')) lines++;
  return { lines, bytes: (await stat(file)).size };
}

interface Endpoint {
  name: string;
  path: string;
  bytes: number;
}

/** Runs off, on, off, on… on one endpoint (interleaving spreads drift over both) and sums them up. */
async function compare(
  ctx: BenchContext,
  nodes: Record<Target, Node>,
  endpoint: Endpoint,
): Promise<{ rows: ResultRow[]; ratio: number; notes: string[]; costs: Record<Target, number | null> }> {
  const s = ctx.settings;
  const runs: Record<Target, LoadRun[]> = { off: [], on: [] };
  for (let i = 1; i <= s.runs; i++) {
    for (const target of TARGETS) {
      const { service } = nodes[target];
      const pid = service.child.process.pid;
      const run = await measureLoad({
        url: `${service.baseUrl}${endpoint.path}`,
        headers: { 'x-api-key': service.apiKey },
        connections: s.connections,
        pipelining: s.pipelining,
        warmupSeconds: s.warmupSeconds,
        durationSeconds: s.durationSeconds,
        ...(pid !== undefined ? { serverPid: pid } : {}),
      });
      ctx.log(
        `[access-log ${endpoint.name}] ${target.padEnd(3)} run ${i}/${s.runs}: ${run.requestsPerSec.toFixed(1)} req/s, ` +
          `p50 ${run.latencyP50Ms} ms, p99 ${run.latencyP99Ms} ms, CPU server ${run.serverCpuPercent?.toFixed(0) ?? '?'}%`,
      );
      runs[target].push(run);
    }
  }
  const row = (target: Target): ResultRow => ({
    section: 'access-log',
    target: `${endpoint.name}, log ${target}`,
    median: medianRun(runs[target]),
    runs: runs[target],
  });
  const rows = { off: row('off'), on: row('on') };
  const ratio = rows.on.median.requestsPerSec / rows.off.median.requestsPerSec;
  const costs = { off: serverMicrosPerRequest(rows.off.median), on: serverMicrosPerRequest(rows.on.median) };
  const notes = [
    `access-log ${endpoint.name} (GET ${endpoint.path}, ${endpoint.bytes.toLocaleString('en-US')} bytes): on/off req/s ${ratio.toFixed(3)} ` +
      `(medians ${rows.on.median.requestsPerSec.toFixed(0)} / ${rows.off.median.requestsPerSec.toFixed(0)})` +
      (costs.on !== null && costs.off !== null
        ? `; server CPU per request ${costs.on.toFixed(1)} µs on, ${costs.off.toFixed(1)} µs off (${(costs.on - costs.off >= 0 ? '+' : '') + (costs.on - costs.off).toFixed(1)} µs, ${(costs.on / costs.off).toFixed(3)}x)`
        : ''),
  ];
  for (const r of [rows.off, rows.on]) {
    const bad = r.median.non2xx + r.median.errors + r.median.timeouts;
    if (bad > 0) notes.push(`WARNING: ${r.target} had ${bad} non-2xx, errors or timeouts`);
  }
  return { rows: [rows.off, rows.on], ratio, notes, costs };
}

export const accessLogSection: Section = {
  name: 'access-log',
  description:
    'GET /v1/events/{id}/odds (a small event and a 1,000-market one) with ACCESS_LOG=on vs off, logging to a file, interleaved',
  async run(ctx): Promise<SectionResult> {
    const world = buildWorld({ now: Date.now(), otherEvents: 1 });
    const fixtures = world.messages.filter((m) => m.type === 'fixture');
    const smallId = fixtures.find((m) => m.event_id !== world.deepEventId)?.event_id;
    if (smallId === undefined) throw new Error('the world has no ordinary event');
    const nodes = { off: await startNode(ctx, 'off'), on: await startNode(ctx, 'on') };
    const endpoints: Endpoint[] = [
      { name: 'small', path: `/v1/events/${encodeURIComponent(smallId)}/odds`, bytes: 0 },
      { name: 'deep', path: `/v1/events/${encodeURIComponent(world.deepEventId)}/odds`, bytes: 0 },
    ];
    for (const target of TARGETS) {
      const { service } = nodes[target];
      await service.feed(world.messages);
      await service.settle();
      for (const e of endpoints) {
        const res = await service.get(e.path);
        if (res.status !== 200) throw new Error(`${target}: GET ${e.path} answered ${res.status}`);
        e.bytes = res.body.length;
      }
    }
    ctx.log(`access-log: two services fed; ${endpoints.map((e) => `${e.path} = ${e.bytes} bytes`).join(', ')}`);

    const results: Array<Awaited<ReturnType<typeof compare>>> = [];
    for (const e of endpoints) results.push(await compare(ctx, nodes, e));
    const small = results[0]!;
    const logged = await accessLines(nodes.on.logFile);
    const quiet = await accessLines(nodes.off.logFile);
    const measured = results.reduce((n, r) => n + r.rows[1]!.median.requests, 0);
    const notes = [
      ...results.flatMap((r) => r.notes),
      `access-log: ${logged.lines.toLocaleString('en-US')} access lines written (${(logged.bytes / Math.max(1, logged.lines)).toFixed(0)} bytes each, ` +
        `${(logged.bytes / 1e6).toFixed(1)} MB) for ${measured.toLocaleString('en-US')} measured requests plus warm-ups; ` +
        `the "off" service wrote ${quiet.lines}`,
    ];
    if (logged.lines < measured)
      notes.push(`WARNING: fewer access lines (${logged.lines}) than requests (${measured})`);
    if (quiet.lines > 0) notes.push(`WARNING: ACCESS_LOG=off wrote ${quiet.lines} access lines`);
    return {
      rows: results.flatMap((r) => r.rows),
      // Server CPU per request: the load generator shares the machine and often caps req/s first.
      checks: [
        small.costs.on !== null && small.costs.off !== null
          ? check(
              'access-log',
              'access-log small: on/off server CPU per request',
              small.costs.on / small.costs.off,
              '<=',
              1.3,
            )
          : check('access-log', 'access-log small: on/off req/s', small.ratio, '>=', 0.8),
      ],
      notes,
      data: {
        endpoints: endpoints.map((e, i) => ({
          ...e,
          ratio: results[i]!.ratio,
          serverMicrosPerRequest: results[i]!.costs,
        })),
        logLines: logged.lines,
        logBytes: logged.bytes,
      },
    };
  },
};
