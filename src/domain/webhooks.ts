// Webhook subscriptions and deliveries as the service models them: event types, filters, delivery states (docs/webhooks.md).
import type { OddsFormat } from './types.js';

/** What a subscription may ask to be told (decisions.md, "Webhooks"). */
export const WEBHOOK_TYPES = [
  'result',
  'settlement',
  'settlement.completed',
  'status',
  'outright_settlement',
  'odds',
] as const;
export type WebhookType = (typeof WEBHOOK_TYPES)[number];

/** `odds` sends every price move of its events: it needs `event_ids`, at most this many. */
export const MAX_ODDS_EVENTS = 50;

/** Why a subscription stopped receiving: its owner turned it off, or it failed for too long. */
export type WebhookDisabledReason = 'owner' | 'failing';

export interface WebhookSubscription {
  /** `wh_` + random. */
  id: string;
  /** The API key that owns it. */
  keyId: string;
  url: string;
  types: WebhookType[];
  sport: string | null;
  league: string | null;
  eventIds: string[] | null;
  /** Market families kept in `settlement` and `odds` deliveries (null: every market). */
  markets: string[] | null;
  oddsFormat: OddsFormat;
  enabled: boolean;
  disabledReason: WebhookDisabledReason | null;
  /** `whsec_` + base64 of the key bytes. */
  secret: string;
  /** The secret before the last rotation, still signed with until `previousSecretUntil`. */
  previousSecret: string | null;
  previousSecretUntil: number | null;
  /** When deliveries started failing without a success since (null: the last attempt succeeded). */
  failingSince: number | null;
  createdAt: number;
  updatedAt: number;
}

export type WebhookDeliveryStatus = 'pending' | 'delivered';

/** One message to one subscription: its body is fixed when it is made, its id is the same on every attempt. */
export interface WebhookDelivery {
  /** `msg_` + random: the `webhook-id` header (the receiver's idempotency key). */
  id: string;
  webhookId: string;
  /** Order within the outbox: a subscription receives its deliveries in this order. */
  seq: number;
  type: WebhookType | 'test';
  /** The JSON body `{type, timestamp, data}` exactly as posted. */
  body: string;
  /** The change-log position it announces ('' for a test event). */
  position: string;
  createdAt: number;
  status: WebhookDeliveryStatus;
  attempts: number;
  nextAttemptAt: number;
  lastAttemptAt: number | null;
  /** HTTP status of the last attempt (null: no answer: refused, timed out, blocked address). */
  lastStatus: number | null;
  lastError: string | null;
  lastLatencyMs: number | null;
  deliveredAt: number | null;
}

/** The outcome of one attempt, as the delivery log records it. */
export interface WebhookAttemptOutcome {
  ok: boolean;
  status: number | null;
  error: string | null;
  latencyMs: number;
}

/**
 * When to try again after `attempts` failed attempts: exponential from `baseMs` (doubling), capped
 * at `maxMs`, with full jitter on the upper half (`random` in [0, 1)) so receivers that fail
 * together are not hit together again.
 */
export function retryDelayMs(attempts: number, baseMs: number, maxMs: number, random: number): number {
  const exp = Math.min(maxMs, baseMs * 2 ** Math.max(0, Math.min(attempts - 1, 40)));
  return Math.round(exp / 2 + (exp / 2) * random);
}
