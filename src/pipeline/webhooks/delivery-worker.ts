// Delivers the webhook outbox on the leader: each subscription's deliveries in order, one in flight each, retried with backoff, disabled after failing too long.
import { signatureHeader } from '../../domain/webhook-signature.js';
import { retryDelayMs, type WebhookAttemptOutcome, type WebhookDelivery } from '../../domain/webhooks.js';
import type { Store } from '../../store/store.js';
import type { PipelineLogger } from '../pipeline.js';
import type { WebhookPoster } from './http-poster.js';

export interface DeliveryWorkerOptions {
  /** The leader's (fenced) store. */
  store: Store;
  post: WebhookPoster;
  /** Wall clock: when a delivery is due, the signature's timestamp. */
  now: () => number;
  logger: PipelineLogger;
  /** First retry after about this long, doubling (default 5 s). */
  retryBaseMs: number;
  /** Longest wait between attempts (default 1 h). */
  retryMaxMs: number;
  /** A subscription failing for this long without a success is disabled (default 3 days). */
  disableAfterMs: number;
  /** Attempts in flight at once, over all subscriptions (each has at most one). */
  concurrency: number;
  /** How often the outbox is looked at when nothing woke the worker (default 1 s). */
  pollMs: number;
  /** Jitter source in [0, 1) (tests: fixed). */
  random?: () => number;
  /** Told each attempt's outcome (metrics). */
  onAttempt?: (outcome: WebhookAttemptOutcome, delivery: WebhookDelivery) => void;
}

/**
 * Head-of-line by design: a subscription's next delivery waits for the one before it, so a
 * receiver sees its changes in the order they happened, and a failing receiver holds only its own
 * queue (other subscriptions go on; `concurrency` bounds the sockets the worker holds).
 */
export class DeliveryWorker {
  private readonly busy = new Set<string>();
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private ticking = false;
  private again = false;
  private running = false;

  constructor(private readonly opts: DeliveryWorkerOptions) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.wake();
  }

  /** Stops taking deliveries and waits for the attempts in flight (their outcome is recorded if the store still takes it). */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await Promise.allSettled([...this.inFlight]);
  }

  /** Something may be due now (new deliveries, a replay, an attempt finished). */
  wake(): void {
    if (!this.running) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.ticking = true;
    void this.tick()
      .catch((err: unknown) => this.opts.logger.warn({ err }, 'webhook delivery: reading the outbox failed'))
      .finally(() => {
        this.ticking = false;
        if (!this.running) return;
        if (this.again) {
          this.again = false;
          this.wake();
          return;
        }
        this.timer = setTimeout(() => {
          this.timer = null;
          this.wake();
        }, this.opts.pollMs);
        this.timer.unref();
      });
  }

  /** Attempts in flight now. */
  get active(): number {
    return this.busy.size;
  }

  private async tick(): Promise<void> {
    const room = this.opts.concurrency - this.busy.size;
    if (room <= 0) return;
    const due = await this.opts.store.dueWebhookDeliveries(this.opts.now(), [...this.busy], room);
    for (const d of due) {
      if (!this.running || this.busy.has(d.webhookId)) continue;
      this.busy.add(d.webhookId);
      const attempt = this.attempt(d)
        .catch((err: unknown) => this.opts.logger.warn({ err, delivery: d.id }, 'webhook delivery: recording failed'))
        .finally(() => {
          this.busy.delete(d.webhookId);
          this.inFlight.delete(attempt);
          this.wake();
        });
      this.inFlight.add(attempt);
    }
  }

  private async attempt(d: WebhookDelivery): Promise<void> {
    const sub = await this.opts.store.getWebhook(d.webhookId);
    if (sub === null || !sub.enabled) return;
    const now = this.opts.now();
    const timestamp = Math.floor(now / 1000);
    const secrets = [sub.secret];
    if (sub.previousSecret !== null && sub.previousSecretUntil !== null && now < sub.previousSecretUntil) {
      secrets.push(sub.previousSecret);
    }
    const outcome = await this.opts.post({
      url: sub.url,
      body: d.body,
      headers: {
        'webhook-id': d.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(secrets, d.id, timestamp, d.body),
      },
    });
    this.opts.onAttempt?.(outcome, d);
    const at = this.opts.now();
    const failingSince = outcome.ok ? null : (sub.failingSince ?? at);
    const disable = !outcome.ok && at - failingSince! >= this.opts.disableAfterMs;
    const random = this.opts.random ?? Math.random;
    await this.opts.store.recordWebhookAttempt({
      deliveryId: d.id,
      webhookId: d.webhookId,
      at,
      outcome,
      nextAttemptAt: at + retryDelayMs(d.attempts + 1, this.opts.retryBaseMs, this.opts.retryMaxMs, random()),
      failingSince,
      disable,
    });
    if (disable) {
      this.opts.logger.warn(
        { webhook: d.webhookId, failingSince },
        'webhook disabled: its deliveries failed for too long; its owner re-enables it',
      );
    }
  }
}
