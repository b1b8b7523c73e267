// Composes the service for this node's ROLE: one small file per role wires ports to implementations.
import type { Config } from '../config.js';
import { composeAll } from './all.js';
import { composeApi } from './api.js';
import { composePipeline } from './pipeline.js';
import type { Service, ServiceOptions } from './service-types.js';

export { openStore } from './node.js';
export type { Service, ServiceOptions } from './service-types.js';

const ROLES: Record<Config['role'], (config: Config, opts: ServiceOptions) => Promise<Service>> = {
  all: composeAll,
  api: composeApi,
  pipeline: composePipeline,
};

export function createService(config: Config, opts: ServiceOptions = {}): Promise<Service> {
  return ROLES[config.role](config, opts);
}
