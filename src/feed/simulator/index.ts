// The built-in simulated world: the deterministic Simulator, and a worker thread that feeds its messages to a consumer.
export { Simulator, type SimulatorOptions } from './simulator.js';
export { buildWorld, type World, type SimLeague, type SimTeam, type SimPlayer } from './world.js';
export {
  DEFAULT_SIM_CONFIG,
  NO_DISRUPTIONS,
  OUTRIGHT_REFRESH_MS,
  resolveConfig,
  type SimConfig,
  type SimConfigInput,
} from './config.js';
export { playOneGame } from './single-game.js';
export { startSimulatorWorker, type SimulatorWorkerHandle, type SimulatorWorkerOptions } from './worker-host.js';
