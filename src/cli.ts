#!/usr/bin/env node
// Entry point: `serve` (default), `replay <file>`, `convert-openfootball <file>`, `realism`, `keys create|list|revoke|plan`.
// What only one command uses is imported in its action: `serve` does not load the replay, the converter or the realism report.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { readFile, writeFile } from 'node:fs/promises';
import { createApiKey } from './api/keys.js';
import { createLogger } from './api/logging.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { PlanBook } from './domain/quota.js';
import { createService, importServiceModules, openStore } from './roles/index.js';
import type { WorldLoad } from './roles/simulator.js';
import { StartProgress } from './start-progress.js';
import { redactDatabaseUrl } from './store/database-url.js';
import type { Store } from './store/store.js';

function config(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`configuration error: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
}

async function serve(): Promise<void> {
  const startedAt = Date.now();
  const cfg = config();
  const logger = createLogger(cfg.logLevel);
  // A restart on a big store restores it before it listens: said, when it is more than a moment.
  let restore: StartProgress | null = null;
  const onRestore = (events: number, of: number): void => {
    if (of < RESTORE_TALK_EVENTS) return;
    restore ??= new StartProgress('restoring the stored events', 'events');
    if (events < of) restore.update(events, of);
    else restore.finish(events, of);
  };
  const service = await createService(cfg, { logger, onRestore }).catch((err: unknown) => {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`configuration error: ${err.message}`);
    process.exit(2);
  });
  let shuttingDown = false;
  const shutdown = (signal: string): void => {
    if (shuttingDown) return;
    shuttingDown = true;
    logger.info({ signal }, 'shutting down: finishing requests and flushing the store');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    service.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  const address = await service.app.listen({ port: cfg.port, host: cfg.host });
  const base = cfg.publicUrl ?? address;
  const lines = [
    `Sports data service ${'1.0.0'} listening on ${address}`,
    `  API docs:  ${base}/docs   (OpenAPI: ${base}/openapi.json)`,
    ...(cfg.role === 'pipeline' ? [] : [`  Portal:    ${base}/portal   (sign up, keys, usage, explorer)`]),
    `  Store:     ${cfg.databaseUrl === null ? `embedded (${cfg.dataDir})` : `PostgreSQL (${redactDatabaseUrl(cfg.databaseUrl)})`}   Feed: ${cfg.feed}`,
  ];
  if (cfg.role === 'api')
    lines.push('  Role:      api (a replica fed by the change stream in Redis; feed requests go on to PIPELINE_URL)');
  if (cfg.role === 'pipeline')
    lines.push('  Role:      pipeline (a leader candidate: probes, /metrics and the feed ingress only)');
  // Only a key the service generated is printed (once, at creation): a configured DEMO_API_KEY is
  // the operator's own and would otherwise land in the logs on every start.
  const generated = cfg.demoApiKey === null ? service.demoKeyCreated : null;
  const key = generated ?? (cfg.demoApiKey !== null ? '$DEMO_API_KEY' : null);
  console.log(lines.join('\n'));
  lines.length = 0;
  // The simulated world loads after the port opens (the API answers meanwhile, with what is in
  // so far): the key and the Try line come once there is something to try them on.
  const load = service.worldLoad();
  if (cfg.role === 'all' && load !== null && !load.done) {
    console.log('  Loading the simulated world (the API answers meanwhile; ready when it is in)…');
    // Two stretches: the simulator builds the world as it stands (its games' books, in its worker),
    // then the service takes it in. Each says how far along it is.
    let building: StartProgress | null = new StartProgress('building the simulated world', 'games');
    let progress: StartProgress | null = null;
    const endBuild = (w: WorldLoad | null): void => {
      if (building === null) return;
      if ((w?.built.of ?? 0) > 0) building.finish(w?.built.of ?? 0, w?.built.of ?? 0);
      building = null;
    };
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const w = service.worldLoad();
        if (w === null || w.done) {
          clearInterval(timer);
          endBuild(w);
          (progress ?? new StartProgress('loading the simulated world', 'events')).finish(w?.events ?? 0, w?.of ?? 0);
          resolve();
        } else if (w.of > 0) {
          endBuild(w);
          (progress ??= new StartProgress('loading the simulated world', 'events')).update(w.events, w.of);
        } else if (w.built.of > 0) building?.update(w.built.games, w.built.of);
      }, 200);
    });
  }
  if (generated !== null) {
    lines.push(`  Demo API key (created now, plan ${cfg.demoPlan}; shown once): ${generated}`);
  } else if (cfg.demoApiKey !== null) {
    lines.push(`  Demo API key: the DEMO_API_KEY you configured (plan ${cfg.demoPlan})`);
  } else {
    lines.push(
      `  API keys: create one with 'npm run cli -- keys create --name me' (the demo key was shown at first start)`,
    );
  }
  if (key !== null && cfg.role !== 'pipeline') {
    lines.push(`  Try:       curl -H "X-API-Key: ${key}" '${base}/v1/events?limit=5'`);
  }
  if (cfg.adminKey === null)
    lines.push('  Admin routes (feed ingress, /metrics) are off: set ADMIN_KEY to enable them');
  const { live, prematch } = service.readModel.counts();
  lines.push(
    `Ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s: ${live.toLocaleString('en-US')} live and ${prematch.toLocaleString('en-US')} upcoming events` +
      (cfg.role === 'pipeline' ? '' : `; open ${base}/portal`),
  );
  console.log(lines.join('\n'));
}

/** A restore of fewer events than this takes under a second or two: no progress for it. */
const RESTORE_TALK_EVENTS = 500;

const program = new Command();
program.name('sports-data').description('Real-time sports data and settlement service');

program
  .command('serve', { isDefault: true })
  .description('start the HTTP API (configuration from the environment; see README)')
  .action(serve);

// For the import-time bench (bench/import-time.ts): what `serve` would load on this thread with this
// configuration, imported and not started; prints the process's time and CPU since it started.
program
  .command('import-serve', { hidden: true })
  .description('import the modules serve would load with this configuration, start nothing, print {ms, cpuMs}')
  .action(async () => {
    await importServiceModules(config());
    const cpu = process.cpuUsage();
    console.log(JSON.stringify({ ms: performance.now(), cpuMs: (cpu.user + cpu.system) / 1000 }));
  });

interface ReplayFlags {
  url?: string;
  adminKey?: string;
  batch: string;
  progress: boolean;
  attempts: string;
  retryDelay: string;
}

program
  .command('replay')
  .description('replay an NDJSON feed file into a running service (--url) or into the configured store')
  .argument('<file>', 'NDJSON feed file')
  .option('--url <url>', 'base URL of a running service (needs --admin-key or ADMIN_KEY)')
  .option('--admin-key <key>', 'admin key of the running service')
  .option('--batch <n>', 'lines per batch', '500')
  .option('--no-progress', 'no progress bar')
  .option('--attempts <n>', 'attempts per line refused for a transient reason (and per request answered 503)', '8')
  .option('--retry-delay <ms>', 'first wait before sending refused lines again (doubles up to 30 s)', '500')
  .action(async (file: string, o: ReplayFlags) => {
    const cfg = config();
    const batch = Number(o.batch);
    if (!Number.isInteger(batch) || batch < 1 || batch > 100_000) {
      console.error('--batch must be an integer from 1 to 100000');
      process.exit(2);
    }
    const attempts = Number(o.attempts);
    const retryDelayMs = Number(o.retryDelay);
    if (!Number.isInteger(attempts) || attempts < 1 || attempts > 1000) {
      console.error('--attempts must be an integer from 1 to 1000');
      process.exit(2);
    }
    if (!Number.isInteger(retryDelayMs) || retryDelayMs < 0 || retryDelayMs > 60_000) {
      console.error('--retry-delay must be an integer from 0 to 60000 (ms)');
      process.exit(2);
    }
    const { replay } = await import('./replay.js');
    const report = await replay(cfg, {
      file,
      ...(o.url !== undefined ? { url: o.url } : {}),
      ...((o.adminKey ?? cfg.adminKey) !== null ? { adminKey: o.adminKey ?? cfg.adminKey ?? '' } : {}),
      batch,
      progress: o.progress && process.stderr.isTTY === true,
      attempts,
      retryDelayMs,
    });
    console.log(`accepted ${report.accepted}, rejected ${report.rejected}`);
    if (report.retried > 0 || report.requestsRetried > 0) {
      console.log(
        `sent again: ${report.retried} refused lines, ${report.requestsRetried} whole requests; given up: ${report.gaveUp} lines`,
      );
    }
    for (const e of report.errors.slice(0, 20)) console.log(`  line ${e.line}: ${e.error}: ${e.message}`);
    if (report.errors.length > 20) console.log(`  … ${report.rejected - 20} more`);
    process.exitCode = report.rejected > 0 ? 1 : 0;
  });

program
  .command('convert-openfootball')
  .description(
    'convert an openfootball season JSON (e.g. ../shared/data/openfootball/en.1.2023-24.json) to feed NDJSON',
  )
  .argument('<file>', 'openfootball JSON file')
  .option('-o, --out <file>', 'output file (default: standard output)')
  .action(async (file: string, o: { out?: string }) => {
    const [{ convertOpenfootball }, { toNdjson }] = await Promise.all([
      import('./feed/openfootball.js'),
      import('./feed/ndjson.js'),
    ]);
    const season: unknown = JSON.parse(await readFile(file, 'utf8'));
    const ndjson = toNdjson(convertOpenfootball(season));
    if (o.out !== undefined) await writeFile(o.out, ndjson);
    else process.stdout.write(ndjson);
  });

program
  .command('realism')
  .description('simulate world days on a fast clock and print simulated figures beside real references (PASS/MISS)')
  .option('--days <n>', 'world days to simulate', '1')
  .option('--seed <n>', 'world seed', '1')
  .option('--sports <list>', 'comma-separated sport keys (default: all)')
  .option(
    '--data <dir>',
    'reference data (openfootball/, nfl/); default ../shared/data, else the copies in test/feed/fixtures',
  )
  .action(async (o: { days: string; seed: string; sports?: string; data?: string }) => {
    const { compare, formatReport, loadReferences, simulateFigures } =
      await import('./feed/simulator/realism/report.js');
    // A clone without the workspace's shared data still has the same files as test fixtures.
    const root = join(import.meta.dirname, '..', '..');
    const shared = join(root, '..', 'shared', 'data');
    const data = o.data ?? (existsSync(join(shared, 'openfootball')) ? shared : join(root, 'test', 'feed', 'fixtures'));
    const refs = await loadReferences(data);
    const figures = simulateFigures({
      seed: Number(o.seed),
      days: Number(o.days),
      ...(o.sports !== undefined ? { sports: o.sports.split(',') } : {}),
    });
    process.stdout.write(formatReport(figures, compare(figures, refs)) + '\n');
  });

const keys = program
  .command('keys')
  .description('manage client API keys in the store (a running service sees changes within 5 s)');

/** Runs a keys command on the configured store; `plans` are the configured plan names. */
async function withStore(body: (store: Store, plans: PlanBook) => Promise<void>): Promise<void> {
  const cfg = config();
  const store = await openStore(cfg);
  try {
    await body(store, new PlanBook(cfg.plans));
  } finally {
    await store.close();
  }
}

function checkPlan(plans: PlanBook, plan: string): boolean {
  if (plans.has(plan)) return true;
  console.error(`unknown plan '${plan}'; configured plans: ${plans.names().join(', ')} (see PLANS)`);
  process.exitCode = 2;
  return false;
}

const iso = (ms: number | null): string => (ms === null ? '-' : new Date(ms).toISOString());

keys
  .command('create')
  .description('create a key; its secret is printed once and stored only as a hash')
  .option('--name <name>', 'a name for the key', 'default')
  .option('--plan <plan>', 'plan (see PLANS)', 'free')
  .option('--account <email>', 'the portal account that owns the key')
  .action((o: { name: string; plan: string; account?: string }) =>
    withStore(async (store, plans) => {
      if (!checkPlan(plans, o.plan)) return;
      let accountId: string | null = null;
      if (o.account !== undefined) {
        const account = await store.findAccountByEmail(o.account);
        if (account === null) {
          console.error(`no account with email ${o.account}`);
          process.exitCode = 1;
          return;
        }
        accountId = account.id;
      }
      const { key, secret } = await createApiKey(store, { name: o.name, plan: o.plan, accountId, now: Date.now() });
      console.log(`created key ${key.id} (${key.name}, plan ${key.plan}). The secret is shown once:\n${secret}`);
    }),
  );

keys
  .command('list')
  .description('list keys: id, name, plan, account, created, last used, state')
  .option('--json', 'one JSON object per line')
  .action((o: { json?: boolean }) =>
    withStore(async (store) => {
      for (const k of await store.listApiKeys()) {
        const state = k.revokedAt === null ? 'active' : `revoked ${iso(k.revokedAt)}`;
        if (o.json === true) {
          const { keyHash: _hash, ...visible } = k;
          console.log(JSON.stringify({ ...visible, state: k.revokedAt === null ? 'active' : 'revoked' }));
          continue;
        }
        const account = k.accountId ?? '-';
        console.log([k.id, k.name, k.plan, account, iso(k.createdAt), iso(k.lastUsedAt), state].join('\t'));
      }
    }),
  );

keys
  .command('revoke')
  .description('revoke a key (refused from then on; a running service within 5 s)')
  .argument('<id>', 'key id (from keys list)')
  .action((id: string) =>
    withStore(async (store) => {
      const key = await store.revokeApiKey(id, Date.now());
      if (key === null) {
        console.error(`no key with id ${id}`);
        process.exitCode = 1;
        return;
      }
      console.log(`revoked ${id}`);
    }),
  );

keys
  .command('plan')
  .description("move a key to another plan (its month's count is kept)")
  .argument('<id>', 'key id (from keys list)')
  .argument('<plan>', 'plan name (see PLANS)')
  .action((id: string, plan: string) =>
    withStore(async (store, plans) => {
      if (!checkPlan(plans, plan)) return;
      const key = await store.setApiKeyPlan(id, plan);
      if (key === null) {
        console.error(`no key with id ${id}`);
        process.exitCode = 1;
        return;
      }
      console.log(`key ${id} is now on plan ${plan}`);
    }),
  );

program.parseAsync().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
