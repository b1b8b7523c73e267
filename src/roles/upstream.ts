// FEED=the-odds-api as this node's feed: the upstream adapter's batches go through a retrying producer into the pipeline, like the simulator's.
import type { UpstreamHealth } from '../api/context.js';
import { TheOddsApiProducer, type UpstreamStatus } from '../feed/upstream/the-odds-api/producer.js';
import { DeposedError } from '../pipeline/leadership.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import { retryingProducer, type RetryingProducer } from '../pipeline/retrying-producer.js';
import type { Store } from '../store/store.js';
import type { NodeParts } from './node.js';

/** Test hooks: a fake upstream's fetch, a fast loop, a short timeout. */
export interface UpstreamOptions {
  fetch?: typeof fetch;
  tickMs?: number;
  timeoutMs?: number;
}

/** The provider's key in the store's upstream_spend table. */
const PROVIDER = 'the-odds-api';

export class UpstreamFeed {
  readonly kind = 'upstream';
  private adapter: TheOddsApiProducer | null = null;
  private producer: RetryingProducer | null = null;

  constructor(
    private readonly node: NodeParts,
    private readonly pipeline: Pipeline,
    private readonly hooks: UpstreamOptions = {},
    /** The store the month's spend is kept in: a pipeline candidate's fenced one, so only the leader spends. */
    private readonly store: Store = node.store,
  ) {}

  get held(): number {
    return this.producer?.queue.size ?? 0;
  }

  /** Never loading: the stored world is served at once, the upstream's first answer only adds to it. */
  get loaded(): boolean {
    return true;
  }

  start(): void {
    const { node, pipeline, hooks } = this;
    const producer = (this.producer ??= retryingProducer((m) => pipeline.applyAll(m), node.log));
    const logger = node.logger;
    const store = this.store;
    // The same adapter object across a pipeline node's terms keeps its budget count and what it sent.
    this.adapter ??= new TheOddsApiProducer({
      settings: node.config.upstream,
      sink: (messages) => producer.submit(messages),
      now: node.now,
      ledger: {
        load: (month) => store.loadUpstreamSpend(PROVIDER, month),
        // A deposed leader's write is refused by the fence: it then makes no call at all.
        save: (month, credits) =>
          store.saveUpstreamSpend(PROVIDER, month, credits, node.now()).then(
            () => true,
            (err: unknown) => {
              if (err instanceof DeposedError) return false;
              throw err;
            },
          ),
      },
      ...(hooks.fetch ? { fetch: hooks.fetch } : {}),
      ...(hooks.tickMs !== undefined ? { tickMs: hooks.tickMs } : {}),
      ...(hooks.timeoutMs !== undefined ? { timeoutMs: hooks.timeoutMs } : {}),
      ...(logger ? { log: logger } : {}),
    });
    this.adapter.start();
  }

  status(): UpstreamStatus | null {
    return this.adapter?.status() ?? null;
  }

  /** The /v1/health view (seconds, snake_case). */
  health(): UpstreamHealth | null {
    const s = this.status();
    if (s === null) return null;
    const now = this.node.now();
    return {
      provider: s.provider,
      state: s.state,
      last_success_seconds_ago:
        s.lastSuccessAt === null ? null : Math.max(0, Math.floor((now - s.lastSuccessAt) / 1000)),
      next_poll_seconds: s.nextPollAt === null ? null : Math.max(0, Math.ceil((s.nextPollAt - now) / 1000)),
      monthly_budget: s.monthlyBudget,
      credits_used_this_month: s.creditsSpentThisMonth,
      credits_left: s.creditsLeft,
      provider_remaining: s.providerRemaining,
    };
  }

  async stop(): Promise<void> {
    await this.adapter?.stop();
  }

  async close(): Promise<void> {
    const closed = this.producer?.close();
    await this.adapter?.stop();
    await closed;
  }
}
