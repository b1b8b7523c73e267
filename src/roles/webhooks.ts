// Webhooks on the node that writes (ROLE=all, the pipeline leader): the outbox following the change log, the delivery worker, their metrics.
import { Counter, Gauge, type Registry } from 'prom-client';
import type { WebhookAddressPolicy } from '../domain/webhook-address.js';
import { DeliveryWorker } from '../pipeline/webhooks/delivery-worker.js';
import { httpPoster, type WebhookPoster } from '../pipeline/webhooks/http-poster.js';
import { WebhookOutbox } from '../pipeline/webhooks/outbox.js';
import type { Store } from '../store/store.js';
import type { NodeParts } from './node.js';

export interface NodeWebhooks {
  outbox: WebhookOutbox;
  worker: DeliveryWorker;
  /** Follows the log (catching up from the store) and starts delivering: before the pipeline starts. */
  start(): Promise<void>;
  /** Stores what was followed and stops delivering (a clean stop). */
  stop(): Promise<void>;
  /** Deposed: stops without writing (the new leader catches up from the store). */
  discard(): Promise<void>;
  /** Subscriptions or the queue changed on this node. */
  changed(): void;
  close(): void;
  /** Attempts since start by outcome (metrics). */
  readonly outcomes: Readonly<{ delivered: number; failed: number }>;
}

/** The operator's address policy (WEBHOOK_ALLOW_PRIVATE, WEBHOOK_ALLOW_HOSTS). */
export function webhookPolicy(node: Pick<NodeParts, 'config'>): WebhookAddressPolicy {
  return { allowPrivate: node.config.webhooks.allowPrivate, allowHosts: node.config.webhooks.allowHosts };
}

export function nodeWebhooks(node: NodeParts, store: Store, opts: { post?: WebhookPoster } = {}): NodeWebhooks {
  const settings = node.config.webhooks;
  const poster =
    opts.post === undefined
      ? httpPoster({
          policy: webhookPolicy(node),
          connectTimeoutMs: settings.connectTimeoutMs,
          responseTimeoutMs: settings.responseTimeoutMs,
        })
      : null;
  const outcomes = { delivered: 0, failed: 0 };
  let worker: DeliveryWorker | null = null;
  const outbox = new WebhookOutbox({
    log: node.changeLog,
    store,
    now: node.now,
    logger: node.log,
    onStored: () => worker?.wake(),
  });
  worker = new DeliveryWorker({
    store,
    post: opts.post ?? poster!.post,
    now: node.now,
    logger: node.log,
    retryBaseMs: settings.retryBaseMs,
    retryMaxMs: settings.retryMaxMs,
    disableAfterMs: settings.disableAfterMs,
    concurrency: settings.concurrency,
    pollMs: settings.pollMs,
    onAttempt: (outcome) => {
      if (outcome.ok) outcomes.delivered++;
      else outcomes.failed++;
    },
  });
  const w = worker;
  let sweep: NodeJS.Timeout | null = null;
  return {
    outbox,
    worker: w,
    outcomes,
    async start() {
      await outbox.start();
      w.start();
      // The delivery log's retention, hourly.
      sweep = setInterval(() => {
        const before = node.now() - settings.logDays * 86_400_000;
        void store.deleteDeliveredWebhooksBefore(before).catch(() => undefined);
      }, 3_600_000);
      sweep.unref();
    },
    async stop() {
      if (sweep !== null) clearInterval(sweep);
      await outbox.stop();
      await w.stop();
    },
    async discard() {
      if (sweep !== null) clearInterval(sweep);
      outbox.discard();
      await w.stop();
    },
    changed() {
      void outbox
        .refresh()
        .catch(() => undefined)
        .finally(() => w.wake());
    },
    close() {
      poster?.close();
    },
  };
}

/** webhook_deliveries_total by outcome, queue depth, oldest undelivered age (read from the store at scrape time). */
export function registerWebhookMetrics(
  registry: Registry,
  store: Store,
  webhooks: NodeWebhooks,
  now: () => number,
): void {
  const registers = [registry];
  const { outcomes } = webhooks;
  new Counter({
    name: 'webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome (delivered: 2xx; failed: anything else, retried later)',
    labelNames: ['outcome'],
    registers,
    collect() {
      this.reset();
      for (const [outcome, n] of Object.entries(outcomes)) this.inc({ outcome }, n);
    },
  });
  const stats = { at: 0, value: Promise.resolve({ pending: 0, oldestPendingAt: null as number | null }) };
  const read = () => {
    // One store read per scrape for both gauges.
    if (now() - stats.at > 1000 || stats.at === 0) {
      stats.at = now();
      stats.value = store.webhookQueueStats().catch(() => ({ pending: -1, oldestPendingAt: null }));
    }
    return stats.value;
  };
  new Gauge({
    name: 'webhook_queue_depth',
    help: 'Deliveries waiting (pending) for enabled subscriptions',
    registers,
    async collect() {
      this.set((await read()).pending);
    },
  });
  new Gauge({
    name: 'webhook_oldest_undelivered_age_seconds',
    help: 'Age of the oldest pending delivery of an enabled subscription (0: none)',
    registers,
    async collect() {
      const s = await read();
      this.set(s.oldestPendingAt === null ? 0 : Math.max(0, (now() - s.oldestPendingAt) / 1000));
    },
  });
}
