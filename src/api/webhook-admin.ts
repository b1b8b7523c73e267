// Webhook subscriptions of a key: create (with its secret, shown once), read, change, rotate the secret, delete, the delivery log, replays and test events.
import { randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { badRequest, notFound } from '../domain/errors.js';
import type { PlanBook } from '../domain/quota.js';
import type { OddsFormat } from '../domain/types.js';
import { addressAllowed, hostOf, urlRefusal, type WebhookAddressPolicy } from '../domain/webhook-address.js';
import { SECRET_PREFIX } from '../domain/webhook-signature.js';
import {
  MAX_ODDS_EVENTS,
  WEBHOOK_TYPES,
  type WebhookDelivery,
  type WebhookSubscription,
  type WebhookType,
} from '../domain/webhooks.js';
import type { ApiKeyRecord } from '../store/store.js';
import type { WebhookStore } from '../store/webhook-store.js';

/** What a subscription is made of, as a client sends it (validated here beyond its schema). */
export interface WebhookInput {
  url?: string;
  types?: string[];
  sport?: string | null;
  league?: string | null;
  event_ids?: string[] | null;
  markets?: string[] | null;
  odds_format?: OddsFormat;
  enabled?: boolean;
}

export interface WebhookAdminDeps {
  store: WebhookStore;
  plans: PlanBook;
  policy: WebhookAddressPolicy;
  now: () => number;
  /** After a rotation, the old secret still signs for this long. */
  secretOverlapMs: number;
  /** Resolves a host name to its addresses (tests: a fake); default the system resolver. */
  resolve?: (host: string) => Promise<string[]>;
  /** Told after a subscription changed or a delivery was queued (ROLE=all: the outbox and worker on this node). */
  onChange?: () => void;
}

const MAX_EVENT_IDS = 500;
const MAX_MARKETS = 100;
const RESOLVE_TIMEOUT_MS = 3000;

async function systemResolve(host: string): Promise<string[]> {
  const addresses = await lookup(host, { all: true });
  return addresses.map((a) => a.address);
}

function newWebhookId(): string {
  return `wh_${randomBytes(12).toString('base64url')}`;
}

/** A new secret: `whsec_` + base64 of 24 random bytes (Standard Webhooks allows 24 to 64). */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(24).toString('base64');
}

export class WebhookAdmin {
  private readonly resolve: (host: string) => Promise<string[]>;

  constructor(private readonly deps: WebhookAdminDeps) {
    this.resolve = deps.resolve ?? systemResolve;
  }

  /** 400 unless the URL may be a webhook's: scheme, literal address, and where its name resolves now. */
  async checkUrl(url: string): Promise<void> {
    const refusal = urlRefusal(this.deps.policy, url);
    if (refusal !== null) throw badRequest(refusal);
    const host = hostOf(new URL(url));
    if (isIP(host) !== 0) return;
    let addresses: string[];
    try {
      addresses = await Promise.race([
        this.resolve(host),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), RESOLVE_TIMEOUT_MS).unref()),
      ]);
    } catch {
      throw badRequest(`url's host ${host} does not resolve`);
    }
    if (addresses.length === 0) throw badRequest(`url's host ${host} does not resolve`);
    const blocked = addresses.find((a) => !addressAllowed(this.deps.policy, host, a));
    if (blocked !== undefined) {
      throw badRequest(`url must reach a public address; ${host} resolves to ${blocked}, a private or reserved one`);
    }
  }

  private checkFields(sub: WebhookSubscription): void {
    if (sub.types.length === 0) throw badRequest(`types must list at least one of ${WEBHOOK_TYPES.join(', ')}`);
    for (const t of sub.types) {
      if (!(WEBHOOK_TYPES as readonly string[]).includes(t)) {
        throw badRequest(`types: unknown type '${t}'; known: ${WEBHOOK_TYPES.join(', ')}`);
      }
    }
    if (sub.eventIds !== null && (sub.eventIds.length === 0 || sub.eventIds.length > MAX_EVENT_IDS)) {
      throw badRequest(`event_ids must list 1 to ${MAX_EVENT_IDS} event ids (or be left out for every event)`);
    }
    if (sub.markets !== null && (sub.markets.length === 0 || sub.markets.length > MAX_MARKETS)) {
      throw badRequest(`markets must list 1 to ${MAX_MARKETS} market families (or be left out for every market)`);
    }
    if (sub.types.includes('odds')) {
      if (sub.eventIds === null || sub.eventIds.length > MAX_ODDS_EVENTS) {
        throw badRequest(`the odds type needs event_ids, at most ${MAX_ODDS_EVENTS} events`);
      }
    }
  }

  /** Creates a subscription of `key`; its secret is in the answer and never shown again. */
  async create(key: ApiKeyRecord, input: WebhookInput): Promise<WebhookSubscription> {
    if (input.url === undefined) throw badRequest('url is required');
    if (input.types === undefined) throw badRequest('types is required');
    await this.checkUrl(input.url);
    const now = this.deps.now();
    const sub: WebhookSubscription = {
      id: newWebhookId(),
      keyId: key.id,
      url: input.url,
      types: dedupe(input.types) as WebhookType[],
      sport: input.sport ?? null,
      league: input.league ?? null,
      eventIds: input.event_ids == null ? null : dedupe(input.event_ids),
      markets: input.markets == null ? null : dedupe(input.markets),
      oddsFormat: input.odds_format ?? 'decimal',
      enabled: input.enabled ?? true,
      disabledReason: input.enabled === false ? 'owner' : null,
      secret: newWebhookSecret(),
      previousSecret: null,
      previousSecretUntil: null,
      failingSince: null,
      createdAt: now,
      updatedAt: now,
    };
    this.checkFields(sub);
    const limit = this.deps.plans.of(key.plan).webhooks;
    if (!(await this.deps.store.createWebhook(sub, limit))) {
      throw badRequest(`the ${key.plan} plan allows ${limit} webhook subscriptions per key; delete one first`);
    }
    this.deps.onChange?.();
    return sub;
  }

  /** The key's subscription, or 404 (another key's is as unknown as a missing one). */
  async get(key: ApiKeyRecord, id: string): Promise<WebhookSubscription> {
    const sub = await this.deps.store.getWebhook(id);
    if (sub === null || sub.keyId !== key.id) throw notFound(`no webhook '${id}'`);
    return sub;
  }

  list(key: ApiKeyRecord): Promise<WebhookSubscription[]> {
    return this.deps.store.listWebhooksOfKey(key.id);
  }

  async update(key: ApiKeyRecord, id: string, input: WebhookInput): Promise<WebhookSubscription> {
    const old = await this.get(key, id);
    if (input.url !== undefined && input.url !== old.url) await this.checkUrl(input.url);
    const enabled = input.enabled ?? old.enabled;
    const sub: WebhookSubscription = {
      ...old,
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.types !== undefined ? { types: dedupe(input.types) as WebhookType[] } : {}),
      ...(input.sport !== undefined ? { sport: input.sport } : {}),
      ...(input.league !== undefined ? { league: input.league } : {}),
      ...(input.event_ids !== undefined ? { eventIds: input.event_ids === null ? null : dedupe(input.event_ids) } : {}),
      ...(input.markets !== undefined ? { markets: input.markets === null ? null : dedupe(input.markets) } : {}),
      ...(input.odds_format !== undefined ? { oddsFormat: input.odds_format } : {}),
      enabled,
      // Re-enabled: its queue is delivered from where it stopped, and the failing clock starts again.
      disabledReason: enabled ? null : input.enabled === false ? 'owner' : old.disabledReason,
      failingSince: enabled && !old.enabled ? null : old.failingSince,
      updatedAt: this.deps.now(),
    };
    this.checkFields(sub);
    await this.deps.store.updateWebhook(sub);
    this.deps.onChange?.();
    return sub;
  }

  /** A new secret (returned once); the old one keeps signing, beside it, for the overlap. */
  async rotateSecret(key: ApiKeyRecord, id: string): Promise<WebhookSubscription> {
    const old = await this.get(key, id);
    const now = this.deps.now();
    const sub: WebhookSubscription = {
      ...old,
      secret: newWebhookSecret(),
      previousSecret: this.deps.secretOverlapMs > 0 ? old.secret : null,
      previousSecretUntil: this.deps.secretOverlapMs > 0 ? now + this.deps.secretOverlapMs : null,
      updatedAt: now,
    };
    await this.deps.store.updateWebhook(sub);
    return sub;
  }

  async remove(key: ApiKeyRecord, id: string): Promise<void> {
    await this.get(key, id);
    await this.deps.store.deleteWebhook(id);
    this.deps.onChange?.();
  }

  async deliveries(key: ApiKeyRecord, id: string, beforeSeq: number | null, limit: number): Promise<WebhookDelivery[]> {
    await this.get(key, id);
    return this.deps.store.listWebhookDeliveries(id, beforeSeq, limit);
  }

  /** Sends again one delivery (by id) or every delivery made since an instant; how many. */
  async replay(key: ApiKeyRecord, id: string, which: { id: string } | { since: number }): Promise<number> {
    await this.get(key, id);
    const n = await this.deps.store.replayWebhookDeliveries(id, which, this.deps.now());
    if ('id' in which && n === 0) throw notFound(`no delivery '${which.id}' of webhook '${id}'`);
    this.deps.onChange?.();
    return n;
  }

  /** Queues a sample event (`type: test`) behind the subscription's other deliveries. */
  async sendTest(key: ApiKeyRecord, id: string): Promise<string> {
    const sub = await this.get(key, id);
    const now = this.deps.now();
    const messageId = `msg_${randomBytes(16).toString('base64url')}`;
    const body = JSON.stringify({
      type: 'test',
      timestamp: new Date(now).toISOString(),
      data: { webhook_id: sub.id, message: 'a test event, sent on request' },
    });
    await this.deps.store.appendWebhookDeliveries(
      [
        {
          id: messageId,
          webhookId: sub.id,
          type: 'test',
          body,
          position: '',
          createdAt: now,
          status: 'pending',
          attempts: 0,
          nextAttemptAt: now,
          lastAttemptAt: null,
          lastStatus: null,
          lastError: null,
          lastLatencyMs: null,
          deliveredAt: null,
        },
      ],
      null,
    );
    this.deps.onChange?.();
    return messageId;
  }

  /** The key's subscriptions disabled for failing (warnings). */
  async failing(keyId: string): Promise<WebhookSubscription[]> {
    return (await this.deps.store.listWebhooksOfKey(keyId)).filter((s) => s.disabledReason === 'failing');
  }
}

function dedupe(xs: readonly string[]): string[] {
  return [...new Set(xs)];
}
