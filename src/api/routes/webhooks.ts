// Webhook subscriptions of the calling key: /v1/webhooks (create, list), /v1/webhooks/{id} (read, change, delete), its secret's rotation, delivery log, replays and test events.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { badRequest } from '../../domain/errors.js';
import type { WebhookDelivery, WebhookSubscription } from '../../domain/webhooks.js';
import type { ApiContext } from '../context.js';
import { instantOf } from '../instants.js';
import { errorsOf } from '../schemas/common.js';
import {
  WebhookCreateSchema,
  WebhookDeliveriesQuery,
  WebhookDeliveriesSchema,
  WebhookIdParams,
  WebhookListSchema,
  WebhookReplayedSchema,
  WebhookReplaySchema,
  WebhookSchema,
  WebhookTestSchema,
  WebhookUpdateSchema,
  WebhookWithSecretSchema,
} from '../schemas/webhooks.js';
import type { WebhookAdmin } from '../webhook-admin.js';

const isoOrNull = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function webhookBody(s: WebhookSubscription, now: number) {
  return {
    id: s.id,
    url: s.url,
    types: s.types,
    sport: s.sport,
    league: s.league,
    event_ids: s.eventIds,
    markets: s.markets,
    odds_format: s.oddsFormat,
    enabled: s.enabled,
    disabled_reason: s.disabledReason,
    failing_since: isoOrNull(s.failingSince),
    previous_secret_expires_at:
      s.previousSecretUntil !== null && s.previousSecretUntil > now ? isoOrNull(s.previousSecretUntil) : null,
    created_at: new Date(s.createdAt).toISOString(),
    updated_at: new Date(s.updatedAt).toISOString(),
  };
}

function deliveryBody(d: WebhookDelivery) {
  return {
    id: d.id,
    type: d.type,
    status: d.status,
    attempts: d.attempts,
    created_at: new Date(d.createdAt).toISOString(),
    next_attempt_at: d.status === 'pending' ? new Date(d.nextAttemptAt).toISOString() : null,
    last_attempt_at: isoOrNull(d.lastAttemptAt),
    response_status: d.lastStatus,
    latency_ms: d.lastLatencyMs,
    error: d.lastError,
    delivered_at: isoOrNull(d.deliveredAt),
  };
}

const tags = ['webhooks'];
// Managing subscriptions is not metered against the monthly quota (only the per-second rate).
const config = { metering: 'uncounted' as const };

export function webhookRoutes(ctx: ApiContext, admin: WebhookAdmin): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/v1/webhooks',
      {
        config,
        schema: {
          operationId: 'createWebhook',
          tags,
          summary: 'Subscribe a URL to events; the answer carries the signing secret, shown only once',
          body: WebhookCreateSchema,
          response: { 201: WebhookWithSecretSchema, ...errorsOf(400, 401, 429, 503) },
        },
      },
      async (request, reply) => {
        const sub = await admin.create(request.apiKey!, request.body);
        reply.code(201);
        return { ...webhookBody(sub, ctx.now()), secret: sub.secret };
      },
    );

    app.get(
      '/v1/webhooks',
      {
        config,
        schema: {
          operationId: 'listWebhooks',
          tags,
          summary: "The calling key's webhook subscriptions, oldest first",
          response: { 200: WebhookListSchema, ...errorsOf(401, 429, 503) },
        },
      },
      async (request) => ({
        webhooks: (await admin.list(request.apiKey!)).map((s) => webhookBody(s, ctx.now())),
      }),
    );

    app.get(
      '/v1/webhooks/:id',
      {
        config,
        schema: {
          operationId: 'getWebhook',
          tags,
          summary: 'One webhook subscription (without its secret)',
          params: WebhookIdParams,
          response: { 200: WebhookSchema, ...errorsOf(400, 401, 404, 429, 503) },
        },
      },
      async (request) => webhookBody(await admin.get(request.apiKey!, request.params.id), ctx.now()),
    );

    app.patch(
      '/v1/webhooks/:id',
      {
        config,
        schema: {
          operationId: 'updateWebhook',
          tags,
          summary: 'Change a subscription (URL, types, filters, odds format, enabled); re-enabling resumes its queue',
          params: WebhookIdParams,
          body: WebhookUpdateSchema,
          response: { 200: WebhookSchema, ...errorsOf(400, 401, 404, 429, 503) },
        },
      },
      async (request) => webhookBody(await admin.update(request.apiKey!, request.params.id, request.body), ctx.now()),
    );

    app.delete(
      '/v1/webhooks/:id',
      {
        config,
        schema: {
          operationId: 'deleteWebhook',
          tags,
          summary: 'Delete a subscription and its queue and delivery log',
          params: WebhookIdParams,
          response: { 204: { type: 'null', description: 'deleted' }, ...errorsOf(400, 401, 404, 429, 503) },
        },
      },
      async (request, reply) => {
        await admin.remove(request.apiKey!, request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/v1/webhooks/:id/rotate-secret',
      {
        config,
        schema: {
          operationId: 'rotateWebhookSecret',
          tags,
          summary:
            'A new signing secret (shown once); the old one keeps signing beside it for WEBHOOK_SECRET_OVERLAP_HOURS',
          params: WebhookIdParams,
          response: { 200: WebhookWithSecretSchema, ...errorsOf(400, 401, 404, 429, 503) },
        },
      },
      async (request) => {
        const sub = await admin.rotateSecret(request.apiKey!, request.params.id);
        return { ...webhookBody(sub, ctx.now()), secret: sub.secret };
      },
    );

    app.get(
      '/v1/webhooks/:id/deliveries',
      {
        config,
        schema: {
          operationId: 'listWebhookDeliveries',
          tags,
          summary: "A subscription's delivery log, newest first: attempts, status, response code, latency",
          params: WebhookIdParams,
          querystring: WebhookDeliveriesQuery,
          response: { 200: WebhookDeliveriesSchema, ...errorsOf(400, 401, 404, 429, 503) },
        },
      },
      async (request) => {
        const limit = request.query.limit ?? 50;
        const before = request.query.cursor === undefined ? null : Number(request.query.cursor);
        const rows = await admin.deliveries(request.apiKey!, request.params.id, before, limit + 1);
        const page = rows.slice(0, limit);
        return {
          deliveries: page.map(deliveryBody),
          next_cursor: rows.length > limit ? String(page[page.length - 1]!.seq) : null,
        };
      },
    );

    app.post(
      '/v1/webhooks/:id/replay',
      {
        config,
        schema: {
          operationId: 'replayWebhookDeliveries',
          tags,
          summary: 'Send again one delivery (delivery_id) or every delivery made since an instant (since)',
          params: WebhookIdParams,
          body: WebhookReplaySchema,
          response: { 200: WebhookReplayedSchema, ...errorsOf(400, 401, 404, 429, 503) },
        },
      },
      async (request) => {
        const { delivery_id: deliveryId, since } = request.body;
        if ((deliveryId === undefined) === (since === undefined)) {
          throw badRequest('give exactly one of delivery_id and since');
        }
        let which: { id: string } | { since: number };
        if (deliveryId !== undefined) which = { id: deliveryId };
        else {
          const t = instantOf(since!);
          if (t === null)
            throw badRequest('since must be an ISO 8601 date-time with a zone, such as 2026-11-22T10:00:00Z');
          which = { since: t };
        }
        return { replayed: await admin.replay(request.apiKey!, request.params.id, which) };
      },
    );

    app.post(
      '/v1/webhooks/:id/test',
      {
        config,
        schema: {
          operationId: 'testWebhook',
          tags,
          summary: 'Queue a sample event (type `test`), delivered and signed like any other',
          params: WebhookIdParams,
          response: { 202: WebhookTestSchema, ...errorsOf(400, 401, 404, 429, 503) },
        },
      },
      async (request, reply) => {
        const id = await admin.sendTest(request.apiKey!, request.params.id);
        reply.code(202);
        return { delivery_id: id };
      },
    );
  };
}
