// A pipeline candidate's terms as leader: start leading from a fresh load, step down without writing, and a store fence so a deposed term's late work cannot write.
import type { Store } from '../store/store.js';

/** The store methods that change durable facts: a deposed leader may call none of them. */
const WRITES: ReadonlySet<string> = new Set([
  'writeBatch',
  'saveResult',
  'saveSettlement',
  'deleteSettlementsBefore',
  'deleteOddsHistoryBefore',
  'saveTournament',
  'saveOutrightMarket',
  'settleOutrightMarket',
  // The upstream adapter's month spend: a deposed leader's poll may not reserve credits (nor call).
  'saveUpstreamSpend',
  // The webhook outbox and its delivery attempts: only the leader derives and delivers.
  'appendWebhookDeliveries',
  'recordWebhookAttempt',
  'deleteDeliveredWebhooksBefore',
]);

/** What a write of a deposed leader gets: the caller's usual failure path (a retry later, a refusal) takes it. */
export class DeposedError extends Error {
  constructor() {
    super('this pipeline node no longer leads: it may not write the store');
    this.name = 'DeposedError';
  }
}

/**
 * The store as the pipeline and settlement of a candidate see it: reads always, writes only while
 * `open()` (the node leads). A write already sent when the node is deposed cannot be called back,
 * but nothing the old term still has in flight (a flush timer, a settlement batch, a simulator
 * batch being applied) starts a new one.
 */
export function fencedStore(store: Store, open: () => boolean): Store {
  return new Proxy(store, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (typeof prop === 'string' && WRITES.has(prop)) {
        return (...args: unknown[]) => (open() ? method.apply(target, args) : Promise.reject(new DeposedError()));
      }
      return method.bind(target);
    },
  });
}

export interface LeaderParts {
  /**
   * Loads the store afresh and starts everything a leader runs. `current()` turns false the moment
   * this term is over: a start still under way then stops where it is (it throws or returns).
   */
  start(current: () => boolean): Promise<void>;
  /** Stops everything that writes, writing nothing (the fence is already closed): the new leader owns the store. */
  stop(): Promise<void>;
}

/**
 * One candidate's terms. `elected` opens the fence and starts; `lost` closes the fence at once
 * (synchronously: from then on no store write starts) and stops once any start under way has
 * settled, leaving a standby that can be elected again.
 */
export class Leadership {
  private term = 0;
  private open = false;
  private starting: Promise<void> | null = null;
  /** Whether this node leads and has started: it takes the feed. */
  leading = false;
  readonly store: Store;

  constructor(
    store: Store,
    private readonly parts: LeaderParts,
  ) {
    this.store = fencedStore(store, () => this.open);
  }

  /** Whether this node may write the store now. */
  get writable(): boolean {
    return this.open;
  }

  async elected(): Promise<void> {
    const term = ++this.term;
    this.open = true;
    const current = (): boolean => this.open && this.term === term;
    const starting = this.parts.start(current).then(() => {
      if (!current()) throw new Error('leadership lost while starting');
      this.leading = true;
    });
    this.starting = starting;
    try {
      await starting;
    } finally {
      if (this.starting === starting) this.starting = null;
    }
  }

  lost(): Promise<void> {
    this.term++;
    this.open = false;
    this.leading = false;
    const starting = this.starting;
    return (async () => {
      await starting?.catch(() => undefined);
      await this.parts.stop();
    })();
  }
}
