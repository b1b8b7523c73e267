// The webhook outbox's writer: follows the change log, turns the changes subscriptions ask for into deliveries, stores them with the log position reached.
import { randomBytes } from 'node:crypto';
import type { WebhookSubscription } from '../../domain/webhooks.js';
import type { ChangeLog } from '../../live/change-log.js';
import { decodeLogSegment } from '../../live/log-codec.js';
import type { LogEntry } from '../../live/log-entry.js';
import { compareLogPositions, formatLogPosition, type LogPosition } from '../../live/log-position.js';
import type { Store } from '../../store/store.js';
import type { NewWebhookDelivery } from '../../store/webhook-store.js';
import type { PipelineLogger } from '../pipeline.js';
import { FOLLOWED_KINDS, matching, messagesFor, type MatchingSubscription } from './webhook-match.js';

export interface WebhookOutboxOptions {
  log: ChangeLog;
  /** The leader's (fenced) store. */
  store: Store;
  /** Wall clock. */
  now: () => number;
  logger: PipelineLogger;
  /** How often followed entries are turned into deliveries and stored (default 200 ms). */
  flushMs?: number;
  /** How often the subscriptions are read again (another node's API may have changed them; default 5 s). */
  refreshMs?: number;
  /** With nothing to deliver, the position is still stored this often (a restart's catch-up stays short; default 5 s). */
  cursorEveryMs?: number;
  /** Told after deliveries are stored (the delivery worker wakes). */
  onStored?: () => void;
}

/** A delivery id: `msg_` + 16 random bytes (the `webhook-id`, the receiver's idempotency key). */
export function newMessageId(): string {
  return `msg_${randomBytes(16).toString('base64url')}`;
}

const END: LogPosition = { ms: Number.MAX_SAFE_INTEGER, seq: 0 };

/**
 * Why derived from the log rather than written by each producer of a change: every change already
 * goes through it in order, and a restart (or a new leader) finds, in the stored replay window,
 * every entry after the position the outbox last stored with its deliveries (one transaction), so
 * none is skipped. What costs: one set lookup per `odds` entry when some subscription asks for the
 * odds of that event, and nothing at all per price change when none does.
 */
export class WebhookOutbox {
  private readonly opts: Required<Omit<WebhookOutboxOptions, 'onStored'>> & Pick<WebhookOutboxOptions, 'onStored'>;
  private subs: MatchingSubscription[] = [];
  /** Events some `odds` subscription follows. */
  private oddsEvents: ReadonlySet<string> = new Set();
  private queue: LogEntry[] = [];
  private unsubscribe: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private lastRefresh = 0;
  private lastCursorWrite = 0;
  private storedThrough: LogPosition | null = null;
  /** The store's subscriptions version the list was read at. */
  private version = '';
  /** Entries turned into deliveries (metrics). */
  derived = 0;

  constructor(opts: WebhookOutboxOptions) {
    this.opts = { flushMs: 200, refreshMs: 5000, cursorEveryMs: 5000, ...opts };
  }

  /** Follows the log from now and catches up on what the store holds after the last stored position. */
  async start(): Promise<void> {
    await this.refresh();
    // Follow first, then read the store: an entry appended meanwhile is in the queue, and the
    // stored ones are taken only up to the first of those.
    this.unsubscribe = this.opts.log.subscribe((entry) => this.follow(entry));
    const cursor = await this.opts.store.webhookCursor();
    this.storedThrough = cursor;
    if (cursor !== null && compareLogPositions(cursor, this.opts.log.head) < 0) {
      const segments = await this.opts.store.readLogSegments(cursor, END);
      const firstLive = this.queue[0]?.position ?? null;
      const missed: LogEntry[] = [];
      for (const segment of segments) {
        for (const entry of decodeLogSegment(segment.data)) {
          if (compareLogPositions(entry.position, cursor) <= 0) continue;
          if (firstLive !== null && compareLogPositions(entry.position, firstLive) >= 0) continue;
          if (this.wanted(entry)) missed.push(entry);
        }
      }
      if (missed.length > 0) this.queue = missed.concat(this.queue);
      if (segments.length === 0 || compareLogPositions(segments[0]!.from, cursor) > 0) {
        // The stored window starts after the cursor (it aged out, or none is kept): what fell
        // between is gone from the log. Said loudly: deliveries may be missing.
        this.opts.logger.warn(
          { cursor: formatLogPosition(cursor) },
          'webhook outbox: the stored change log does not reach back to where deliveries stopped; some may be missing',
        );
      }
    }
    this.schedule();
  }

  /** Stops following; what was followed is stored first. */
  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.flush().catch(() => undefined);
  }

  /** Drops everything followed without storing it (a deposed leader: the new one catches up from the store). */
  discard(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.queue = [];
  }

  /** The subscriptions changed on this node: read them again before the next entries are matched. */
  async refresh(): Promise<void> {
    const version = await this.opts.store.webhooksVersion();
    const subs = await this.opts.store.listEnabledWebhooks();
    this.version = version;
    this.setSubscriptions(subs);
    this.lastRefresh = this.opts.now();
  }

  setSubscriptions(subs: readonly WebhookSubscription[]): void {
    this.subs = subs.map(matching);
    const odds = new Set<string>();
    for (const s of this.subs)
      if (s.types.has('odds') && s.eventIds !== null) for (const id of s.eventIds) odds.add(id);
    this.oddsEvents = odds;
  }

  /** Entries waiting to be turned into deliveries. */
  get waiting(): number {
    return this.queue.length;
  }

  private wanted(entry: LogEntry): boolean {
    return entry.kind === 'odds' ? this.oddsEvents.has(entry.eventId) : FOLLOWED_KINDS.has(entry.kind);
  }

  private follow(entry: LogEntry): void {
    // A price tick is one entry per event: with no `odds` subscription this is one empty-set lookup.
    if (entry.kind === 'odds') {
      if (this.oddsEvents.size === 0 || !this.oddsEvents.has(entry.eventId)) return;
    } else if (!FOLLOWED_KINDS.has(entry.kind)) return;
    this.queue.push(entry);
  }

  private schedule(): void {
    if (this.unsubscribe === null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush()
        .catch((err: unknown) => this.opts.logger.warn({ err }, 'webhook outbox: storing deliveries failed; retrying'))
        .finally(() => this.schedule());
    }, this.opts.flushMs);
    this.timer.unref();
  }

  /** Stores the deliveries of everything followed so far, with the log position reached. */
  flush(): Promise<void> {
    if (this.flushing !== null) return this.flushing.then(() => this.flush());
    const run = this.flushOnce().finally(() => {
      this.flushing = null;
    });
    this.flushing = run;
    return run;
  }

  private async flushOnce(): Promise<void> {
    const now = this.opts.now();
    if (now - this.lastRefresh >= this.opts.refreshMs) await this.refresh();
    else if (this.queue.length > 0 && (await this.opts.store.webhooksVersion()) !== this.version) {
      // Another node (an API node) changed a subscription: a change fed after its 201 must be
      // matched against it, so the list is read again before these entries are.
      await this.refresh();
    }
    // Every entry up to the head has been seen by follow() (listeners run at each append).
    const head = this.opts.log.head;
    const entries = this.queue;
    this.queue = [];
    const deliveries: NewWebhookDelivery[] = [];
    for (const entry of entries) {
      for (const m of this.subs) {
        for (const msg of messagesFor(m, entry)) {
          deliveries.push({
            id: newMessageId(),
            webhookId: m.sub.id,
            type: msg.type,
            body: msg.body,
            position: formatLogPosition(entry.position),
            createdAt: now,
            status: 'pending',
            attempts: 0,
            nextAttemptAt: now,
            lastAttemptAt: null,
            lastStatus: null,
            lastError: null,
            lastLatencyMs: null,
            deliveredAt: null,
          });
        }
      }
    }
    const moved = this.storedThrough === null || compareLogPositions(head, this.storedThrough) > 0;
    if (deliveries.length === 0 && (!moved || now - this.lastCursorWrite < this.opts.cursorEveryMs)) {
      // Nothing to store yet: the entries made nothing, and the position is stored later.
      return;
    }
    try {
      await this.opts.store.appendWebhookDeliveries(deliveries, head.ms > 0 ? head : null);
    } catch (err) {
      // Kept, in order, before what came meanwhile: the next flush stores them.
      this.queue = entries.concat(this.queue);
      throw err;
    }
    this.storedThrough = head;
    this.lastCursorWrite = now;
    this.derived += deliveries.length;
    if (deliveries.length > 0) this.opts.onStored?.();
  }
}
