#!/usr/bin/env node
// Entry point: `serve` (default), `replay <file>`, `convert-openfootball <file>`, `keys create|list|revoke`.
import { Command } from 'commander';
import { readFile, writeFile } from 'node:fs/promises';
import { pino } from 'pino';
import { REDACTED_PATHS } from './api/app.js';
import { generateApiKey, hashApiKey } from './api/keys.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { convertOpenfootball } from './feed/openfootball.js';
import { toNdjson } from './feed/ndjson.js';
import { replay } from './replay.js';
import { createService, openStore } from './service.js';

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
  const cfg = config();
  const logger = pino({ level: cfg.logLevel, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } });
  const service = await createService(cfg, { logger });
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
    `  Store:     ${cfg.databaseUrl === null ? `embedded (${cfg.dataDir})` : 'PostgreSQL'}   Feed: ${cfg.feed}`,
  ];
  const key = service.demoKeyCreated ?? cfg.demoApiKey;
  if (service.demoKeyCreated !== null) {
    lines.push(`  Demo API key (created now, plan ${cfg.demoPlan}): ${service.demoKeyCreated}`);
  } else if (cfg.demoApiKey !== null) {
    lines.push(`  Demo API key: the DEMO_API_KEY you configured (plan ${cfg.demoPlan})`);
  } else {
    lines.push(
      `  API keys: create one with 'npm run cli -- keys create --name me' (the demo key was shown at first start)`,
    );
  }
  if (key !== null) {
    lines.push(`  Try:       curl -H 'X-API-Key: ${key}' '${base}/v1/events?limit=5'`);
  }
  if (cfg.adminKey === null)
    lines.push('  Admin routes (feed ingress, /metrics) are off: set ADMIN_KEY to enable them');
  console.log(lines.join('\n'));
}

const program = new Command();
program.name('sports-data').description('Real-time sports data and settlement service');

program
  .command('serve', { isDefault: true })
  .description('start the HTTP API (configuration from the environment; see README)')
  .action(serve);

program
  .command('replay')
  .description('replay an NDJSON feed file into a running service (--url) or into the embedded store')
  .argument('<file>', 'NDJSON feed file')
  .option('--url <url>', 'base URL of a running service (needs --admin-key or ADMIN_KEY)')
  .option('--admin-key <key>', 'admin key of the running service')
  .option('--batch <n>', 'lines per batch', '500')
  .option('--no-progress', 'no progress bar')
  .action(async (file: string, o: { url?: string; adminKey?: string; batch: string; progress: boolean }) => {
    const cfg = config();
    const batch = Number(o.batch);
    if (!Number.isInteger(batch) || batch < 1 || batch > 100_000) {
      console.error('--batch must be an integer from 1 to 100000');
      process.exit(2);
    }
    const report = await replay(cfg, {
      file,
      ...(o.url !== undefined ? { url: o.url } : {}),
      ...((o.adminKey ?? cfg.adminKey) !== null ? { adminKey: o.adminKey ?? cfg.adminKey ?? '' } : {}),
      batch,
      progress: o.progress && process.stderr.isTTY === true,
    });
    console.log(`accepted ${report.accepted}, rejected ${report.rejected}`);
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
    const season: unknown = JSON.parse(await readFile(file, 'utf8'));
    const ndjson = toNdjson(convertOpenfootball(season));
    if (o.out !== undefined) await writeFile(o.out, ndjson);
    else process.stdout.write(ndjson);
  });

const keys = program.command('keys').description('manage client API keys in the store');
keys
  .command('create')
  .option('--name <name>', 'a name for the key', 'default')
  .option('--plan <plan>', 'plan', 'free')
  .action(async (o: { name: string; plan: string }) => {
    const store = await openStore(config());
    try {
      const secret = generateApiKey();
      const id = `key_${hashApiKey(secret).slice(0, 16)}`;
      await store.saveApiKey({
        id,
        keyHash: hashApiKey(secret),
        name: o.name,
        plan: o.plan,
        createdAt: Date.now(),
        lastUsedAt: null,
        revokedAt: null,
      });
      console.log(`created key ${id} (${o.name}, plan ${o.plan}). The secret is shown once:\n${secret}`);
    } finally {
      await store.close();
    }
  });
keys.command('list').action(async () => {
  const store = await openStore(config());
  try {
    for (const k of await store.listApiKeys()) {
      const state = k.revokedAt === null ? 'active' : `revoked ${new Date(k.revokedAt).toISOString()}`;
      console.log(`${k.id}\t${k.name}\t${k.plan}\t${new Date(k.createdAt).toISOString()}\t${state}`);
    }
  } finally {
    await store.close();
  }
});
keys
  .command('revoke')
  .argument('<id>', 'key id (from keys list)')
  .action(async (id: string) => {
    const store = await openStore(config());
    try {
      const key = (await store.listApiKeys()).find((k) => k.id === id);
      if (key === undefined) {
        console.error(`no key with id ${id}`);
        process.exitCode = 1;
        return;
      }
      await store.saveApiKey({ ...key, revokedAt: Date.now() });
      console.log(`revoked ${id}`);
    } finally {
      await store.close();
    }
  });

program.parseAsync().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
