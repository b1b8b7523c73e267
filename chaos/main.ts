// `npm run chaos`: a seeded fault campaign on a scaled-out deployment on this machine; writes a report (markdown and JSON) and exits non-zero on any violation.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import pg from 'pg';
import { Deployment } from './deployment.js';
import { FAULT_KINDS, FaultInjector, feedMarker, MARKER } from './faults.js';
import { gameOf } from './games.js';
import { createProbeKeys, HealthProbes, PROBE_MS } from './health.js';
import { History, type FaultKind } from './history.js';
import { Producer } from './producer.js';
import { getJson, readLoop } from './readers.js';
import { renderReport } from './report.js';
import { streamClient } from './streams.js';
import { judge, type FinalState, type ServedResult, type ServedSettlement } from './verdict.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function int(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`a whole number ${min}-${max}`);
    return n;
  };
}

const program = new Command('chaos')
  .description('seeded fault campaign on a scaled-out deployment (loopback only); exit 1 on any violation')
  .option(
    '--minutes <n>',
    'how long faults are injected',
    (v) => {
      const n = Number(v);
      if (!Number.isFinite(n) || n <= 0 || n > 240)
        throw new InvalidArgumentError('a number of minutes, above 0, at most 240');
      return n;
    },
    3,
  )
  .option('--seed <n>', 'seed of the games and the fault schedule', int(0, 2 ** 31), 1)
  .option('--api-nodes <n>', 'ROLE=api nodes', int(1, 8), 2)
  .option('--pipelines <n>', 'ROLE=pipeline candidates', int(1, 4), 2)
  .option('--readers <n>', 'REST readers per API node', int(0, 16), 2)
  .option('--streams <n>', 'stream clients per API node', int(0, 16), 2)
  .option('--games <n>', 'games under way at once', int(1, 200), 12)
  .option('--faults <list>', `comma-separated fault kinds (default all: ${FAULT_KINDS.join(',')})`)
  .option(
    '--database-url <url>',
    'PostgreSQL to create the campaign database on',
    process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  )
  .option('--out <dir>', 'where the report goes (default test-artifacts/chaos-<seed>-<time>)');

interface Options {
  minutes: number;
  seed: number;
  apiNodes: number;
  pipelines: number;
  readers: number;
  streams: number;
  games: number;
  faults?: string;
  databaseUrl: string;
  out?: string;
}

function log(text: string): void {
  process.stderr.write(`[chaos] ${text}\n`);
}

/** What every API node serves for the games, and the store's settlement rows, once the faults are over. */
async function readFinal(d: Deployment, ids: readonly string[]): Promise<FinalState> {
  const final: FinalState = { results: new Map(), settlements: new Map(), storedEntries: new Map() };
  for (const n of d.api) {
    const results = new Map<string, ServedResult>();
    for (const id of ids) {
      const r = await getJson<ServedResult['body']>(n.base, `/v1/events/${id}/result`);
      results.set(id, { status: r.status, body: r.body });
    }
    final.results.set(n.name, results);
    const entries = new Map<string, ServedSettlement[]>();
    for (let i = 0; i < ids.length; i += 50) {
      const chunk = ids.slice(i, i + 50);
      const r = await getJson<{ settlements?: ServedSettlement[] }>(
        n.base,
        `/v1/settlements?limit=200&event_ids=${chunk.join(',')}`,
      );
      for (const e of r.body?.settlements ?? []) entries.set(e.event_id, [...(entries.get(e.event_id) ?? []), e]);
    }
    final.settlements.set(n.name, entries);
  }
  const client = new pg.Client({ connectionString: d.databaseUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const rows = await client.query<{ event_id: string; n: string }>(
      'select event_id, count(*) as n from settlements group by event_id',
    );
    for (const r of rows.rows) final.storedEntries.set(r.event_id, Number(r.n));
  } finally {
    await client.end();
  }
  return final;
}

/** Waits until every API node serves every game fully settled (bounded): the check then reads a settled world. */
async function untilSettled(d: Deployment, ids: readonly string[], timeoutMs: number): Promise<boolean> {
  const t0 = Date.now();
  while (Date.now() - t0 < timeoutMs) {
    let done = true;
    for (const n of d.api) {
      for (let i = 0; i < ids.length && done; i += 50) {
        const chunk = ids.slice(i, i + 50);
        const r = await getJson<{ settlements?: ServedSettlement[] }>(
          n.base,
          `/v1/settlements?limit=200&event_ids=${chunk.join(',')}`,
        );
        const settled = (r.body?.settlements ?? []).filter((e) => e.pending_markets_count === 0).length;
        if (settled < chunk.length) done = false;
      }
    }
    if (done) return true;
    await sleep(1000);
  }
  return false;
}

async function main(): Promise<number> {
  program.parse();
  const o = program.opts<Options>();
  const kinds = (o.faults?.split(',').map((k) => k.trim()) ?? [...FAULT_KINDS]) as FaultKind[];
  for (const k of kinds)
    if (!FAULT_KINDS.includes(k)) {
      log(`unknown fault kind '${k}' (known: ${FAULT_KINDS.join(', ')})`);
      return 2;
    }
  const out = o.out ?? join('test-artifacts', `chaos-${o.seed}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  const h = new History();
  const d = new Deployment({
    adminDatabaseUrl: o.databaseUrl,
    apiNodes: o.apiNodes,
    pipelines: o.pipelines,
    env: { FLUSH_INTERVAL_MS: '250' },
    logDir: join(out, 'logs'),
    onCrash: (n, how, lastLines) => {
      h.crashes.push({ at: h.now(), node: n.name, how, lastLines });
      log(`${n.name} crashed (${how}): ${lastLines.slice(-3).join(' | ')}`);
    },
  });
  let stopping = false;
  let interrupted: string | null = null;
  const ac = new AbortController();
  let injector: FaultInjector | null = null;

  // An interrupt ends the campaign as its end would: the fault undone, children stopped, the database dropped.
  const cleanup = async (): Promise<void> => {
    stopping = true;
    ac.abort();
    await injector?.abort();
    await d.stop();
  };
  const onSignal = (signal: string): void => {
    if (interrupted !== null) return;
    interrupted = signal;
    log(`${signal}: stopping and cleaning up`);
    void cleanup().finally(() => process.exit(130));
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('exit', () => d.killNow());
  // Bounded whatever happens: setup, the faults, the drain and the checks.
  const hardLimitMs = (o.minutes + 15) * 60_000;
  const watchdog = setTimeout(() => {
    log(`still running ${hardLimitMs / 60_000} minutes after the start: giving up`);
    void cleanup().finally(() => process.exit(3));
  }, hardLimitMs);
  watchdog.unref();

  try {
    log(
      `seed ${o.seed}, ${o.minutes} min of faults (${kinds.join(', ')}), ${o.apiNodes} API nodes, ${o.pipelines} candidates`,
    );
    await d.admin('select 1');
    await d.start(log);
    // Keys for the health probes: enough for the faults, the drain and the checks.
    const probes = Math.ceil(((o.minutes + 10) * 60_000 * o.apiNodes) / PROBE_MS);
    const keys = await createProbeKeys(d.databaseUrl, probes);
    if (!(await feedMarker(d))) throw new Error('the leader did not take the marker event');
    const health = new HealthProbes(h, keys);

    const producer = new Producer(d, h, o.seed, o.games, 300);
    const warmupMs = 10_000;
    // The clock of the faults starts once the deployment is up (its start takes what the machine gives it).
    const faultsFrom = h.now();
    const faultsEnd = (): boolean => stopping || h.now() - faultsFrom > o.minutes * 60_000 + warmupMs;
    const producing = producer.run(faultsEnd, 180_000);
    const readers: Array<Promise<void>> = [];
    const readersStop = (): boolean => stopping;
    d.api.forEach((n) => {
      for (let i = 0; i < o.readers; i++) readers.push(readLoop(h, n, o.seed + i, () => producer.ids(), readersStop));
    });
    const streams = d.api.flatMap((_, k) =>
      Array.from({ length: o.streams }, (_x, i) => streamClient(h, `stream-${k + 1}.${i + 1}`, d.api, k, ac.signal)),
    );
    const probing = health.run(d.api, () => stopping);

    await sleep(warmupMs);
    injector = new FaultInjector(d, h, o.seed, kinds, () => void producer.burst(20));
    while (!faultsEnd()) {
      const plan = injector.nextPlan();
      const rec = await injector.inject(plan.kind);
      log(`${(rec.start / 1000).toFixed(1)} s ${rec.kind}: ${rec.detail}`);
      // A node that crashed is started again (its crash is a violation), as an orchestrator would.
      for (const n of [...d.pipeline, ...d.api])
        if (!d.isAlive(n))
          await d.startNode(n).catch((err: Error) => h.note(`${n.name} did not restart: ${err.message}`));
      // The next fault waits for every API node to be ready again (bounded), then a seeded pause.
      for (const n of d.api) if (!(await d.ready(n, 60_000))) h.note(`${n.name} not ready 60 s after ${rec.kind}`);
      if ((await d.leader(60_000)) === null) h.note(`no leader 60 s after ${rec.kind}`);
      const until = performance.now() + plan.pauseMs;
      while (!faultsEnd() && performance.now() < until) await sleep(200);
    }
    log(`faults over after ${(h.now() / 1000).toFixed(0)} s; the producer finishes its games`);
    await producing;
    const ids = producer.ids().filter((id) => producer.resulted.has(id));
    if (!(await untilSettled(d, ids, 120_000))) h.note('not every game was settled on every API node within 120 s');
    // The streams get the last settlements, then stop.
    await sleep(3000);
    stopping = true;
    ac.abort();
    await Promise.all([...readers, probing, ...streams.map((s) => s.catch(() => undefined))]);
    log('reading what every API node serves');
    const final = await readFinal(d, producer.ids());
    const verdict = judge(
      h,
      producer.games,
      producer.resulted,
      d.api.map((n) => n.name),
      final,
    );
    if (health.skipped > 0) h.note(`${health.skipped} health probes skipped: every probe key used up`);
    await mkdir(out, { recursive: true });
    const settings = { ...o, faults: kinds, marker: MARKER, first_game: gameOf(o.seed, 0).id };
    await writeFile(
      join(out, 'report.json'),
      JSON.stringify({ settings, started_at: h.startedAt, ...verdict, timeline: h.faults, notes: h.notes }, null, 2),
    );
    await writeFile(join(out, 'report.md'), renderReport(settings, h, verdict));
    log(`report: ${join(out, 'report.md')} — ${verdict.violations.length} violations`);
    return verdict.violations.length === 0 ? 0 : 1;
  } catch (err) {
    log(`the campaign could not run: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    log(d.logs().split('\n').slice(-40).join('\n'));
    return 2;
  } finally {
    if (interrupted === null) await cleanup();
    clearTimeout(watchdog);
  }
}

process.exitCode = await main();
if (process.exitCode !== 130) process.exit(process.exitCode);
