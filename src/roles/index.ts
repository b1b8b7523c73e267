// Composes the service for this node's ROLE: one small file per role wires ports to implementations.
import type { Config } from '../config.js';
import { importProducer } from './feeds.js';
import type { Service, ServiceOptions } from './service-types.js';
import { importStoreEngine } from './store.js';

export { openStore } from './store.js';
export type { Service, ServiceOptions } from './service-types.js';

type Compose = (config: Config, opts: ServiceOptions) => Promise<Service>;

// Each role's file is loaded when a node takes that role: a single process never loads the
// scaled-out roles' modules (the leader election's PostgreSQL driver, the change stream's Redis client).
const ROLES: Record<Config['role'], () => Promise<Compose>> = {
  all: async () => (await import('./all.js')).composeAll,
  api: async () => (await import('./api.js')).composeApi,
  pipeline: async () => (await import('./pipeline.js')).composePipeline,
};

export async function createService(config: Config, opts: ServiceOptions = {}): Promise<Service> {
  const compose = await ROLES[config.role]();
  return compose(config, opts);
}

/**
 * Imports every module `createService` would load on this thread for `config` (the role's, the
 * store engine's, the producer's; not the Redis quota counters of REDIS_URL), starting nothing:
 * what the hidden `import-serve` command times for the import-time bench (bench/import-time.ts).
 */
export async function importServiceModules(config: Config): Promise<void> {
  await Promise.all([ROLES[config.role](), importStoreEngine(config), importProducer(config)]);
}
