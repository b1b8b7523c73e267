// What the store keeps for webhooks: subscriptions, the outbox of deliveries (also the delivery log) and the position it is derived up to.
import type { WebhookAttemptOutcome, WebhookDelivery, WebhookSubscription } from '../domain/webhooks.js';

/** A delivery to add to the outbox: the store gives it its `seq`. */
export type NewWebhookDelivery = Omit<WebhookDelivery, 'seq'>;

/** A change-log position (wall milliseconds, then a counter). */
export interface WebhookCursor {
  ms: number;
  seq: number;
}

/** What an attempt changes: the delivery's log and, through the subscription, whether it is failing or disabled. */
export interface WebhookAttemptWrite {
  deliveryId: string;
  webhookId: string;
  at: number;
  outcome: WebhookAttemptOutcome;
  /** When to try again (failed attempts); ignored when delivered. */
  nextAttemptAt: number;
  /** The subscription's `failing_since` after this attempt. */
  failingSince: number | null;
  /** Failing for too long: the subscription is disabled (`failing`). */
  disable: boolean;
}

/** The outbox as metrics see it. */
export interface WebhookQueueStats {
  pending: number;
  /** When the oldest pending delivery was made (null: none pending). */
  oldestPendingAt: number | null;
}

export interface WebhookStore {
  /**
   * Adds a subscription unless its key already has `limit` (null: no limit); false when it has.
   * The count and the insert are one transaction.
   */
  createWebhook(sub: WebhookSubscription, limit: number | null): Promise<boolean>;
  getWebhook(id: string): Promise<WebhookSubscription | null>;
  /** A key's subscriptions, oldest first. */
  listWebhooksOfKey(keyId: string): Promise<WebhookSubscription[]>;
  /** Every enabled subscription (the outbox matches changes against them). */
  listEnabledWebhooks(): Promise<WebhookSubscription[]>;
  /**
   * A cheap reading that changes whenever a subscription is created, deleted, enabled, disabled or
   * changed (count, enabled count, latest `updated_at`): the outbox reads the list again only then.
   */
  webhooksVersion(): Promise<string>;
  /** Replaces a subscription's fields (its id and key stay). */
  updateWebhook(sub: WebhookSubscription): Promise<void>;
  /** Removes a subscription and its deliveries; false when unknown. */
  deleteWebhook(id: string): Promise<boolean>;
  /** The position the outbox was derived up to (null: never written). */
  webhookCursor(): Promise<WebhookCursor | null>;
  /**
   * Appends deliveries (in order: each gets the next `seq`) and moves the cursor, in one
   * transaction: a restart resumes after the cursor and finds every delivery before it.
   */
  appendWebhookDeliveries(deliveries: readonly NewWebhookDelivery[], cursor: WebhookCursor | null): Promise<void>;
  /**
   * The next pending delivery of each enabled subscription, when it is due at `now`, leaving out
   * the subscriptions in `busy` (an attempt in flight), soonest due first, at most `limit`.
   */
  dueWebhookDeliveries(now: number, busy: readonly string[], limit: number): Promise<WebhookDelivery[]>;
  /** Records an attempt (delivered, or failed and when to try again) and its subscription's state, in one transaction. */
  recordWebhookAttempt(write: WebhookAttemptWrite): Promise<void>;
  /** A subscription's deliveries, newest first, before `beforeSeq` (a page), at most `limit`. */
  listWebhookDeliveries(webhookId: string, beforeSeq: number | null, limit: number): Promise<WebhookDelivery[]>;
  /** Sends deliveries again (pending, due at `now`): one by id, or every one made at or after `since`; how many. */
  replayWebhookDeliveries(webhookId: string, which: { id: string } | { since: number }, now: number): Promise<number>;
  /** Drops delivered deliveries made before `before` (the log's retention); how many went. */
  deleteDeliveredWebhooksBefore(before: number): Promise<number>;
  webhookQueueStats(): Promise<WebhookQueueStats>;
}
