// The in-process usage counter: the shared counter contract (atomic check-and-count, windows, rollover, persistence).
import { MemoryUsageCounter } from '../../../src/api/quota/memory-counter.js';
import { usageCounterContract } from './counter-contract.js';

usageCounterContract(
  'memory',
  async () => ({
    open: (store, now) => MemoryUsageCounter.open({ store, flushIntervalMs: 0 }, now ?? Date.now()),
    dispose: async () => undefined,
  }),
  false,
);
