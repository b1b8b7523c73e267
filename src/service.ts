// The service as tests, benchmarks and scripts start it: createService composes the node for config.role (src/roles/).
export { createService, openStore, type Service, type ServiceOptions } from './roles/index.js';
export { API_VERSION } from './api/context.js';
