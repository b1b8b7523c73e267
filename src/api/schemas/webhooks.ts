// TypeBox schemas of webhook subscriptions, their delivery log, replays and test events (docs/webhooks.md).
import { Type } from 'typebox';
import { WEBHOOK_TYPES } from '../../domain/webhooks.js';
import { OddsFormatSchema, StringEnum } from './common.js';

const Types = Type.Array(StringEnum(WEBHOOK_TYPES, { $id: 'WebhookType' }), {
  minItems: 1,
  maxItems: WEBHOOK_TYPES.length,
  description:
    'the events to be told: result, settlement (each newly resolved market), settlement.completed, status, outright_settlement, odds (needs event_ids)',
});
const NullableString = (description: string) =>
  Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Null()], { description });
const NullableList = (description: string, maxItems: number) =>
  Type.Union([Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems }), Type.Null()], {
    description,
  });

const fields = {
  url: Type.String({ minLength: 1, maxLength: 2048, description: 'https URL the deliveries are posted to' }),
  types: Types,
  sport: Type.Optional(NullableString('only this sport (as the stream filter)')),
  league: Type.Optional(NullableString('only this league slug')),
  event_ids: Type.Optional(NullableList('only these events (or tournaments)', 500)),
  markets: Type.Optional(NullableList('market families kept in settlement deliveries (`1x2`, `totals`…)', 100)),
  odds_format: Type.Optional(OddsFormatSchema),
  enabled: Type.Optional(Type.Boolean({ description: 'default true' })),
};

export const WebhookCreateSchema = Type.Object(fields, { additionalProperties: false, $id: 'WebhookCreate' });

export const WebhookUpdateSchema = Type.Object(
  { ...fields, url: Type.Optional(fields.url), types: Type.Optional(Types) },
  { additionalProperties: false, $id: 'WebhookUpdate' },
);

const webhookProps = {
  id: Type.String(),
  url: Type.String(),
  types: Type.Array(Type.String()),
  sport: Type.Union([Type.String(), Type.Null()]),
  league: Type.Union([Type.String(), Type.Null()]),
  event_ids: Type.Union([Type.Array(Type.String()), Type.Null()]),
  markets: Type.Union([Type.Array(Type.String()), Type.Null()]),
  odds_format: Type.String(),
  enabled: Type.Boolean(),
  disabled_reason: Type.Union([StringEnum(['owner', 'failing'] as const), Type.Null()], {
    description:
      '`failing`: disabled after failing too long; PATCH enabled=true delivers its queue from where it stopped',
  }),
  failing_since: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  previous_secret_expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'after a rotation: until then deliveries carry a signature with the old secret too',
  }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
};

export const WebhookSchema = Type.Object(webhookProps, { $id: 'Webhook' });

export const WebhookWithSecretSchema = Type.Object(
  {
    ...webhookProps,
    secret: Type.String({ description: '`whsec_` + base64: shown only in this answer; verifies the signatures' }),
  },
  { $id: 'WebhookWithSecret' },
);

export const WebhookListSchema = Type.Object({ webhooks: Type.Array(WebhookSchema) }, { $id: 'WebhookList' });

export const WebhookIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const WebhookDeliverySchema = Type.Object(
  {
    id: Type.String({ description: 'the webhook-id header: the same on every attempt' }),
    type: Type.String(),
    status: StringEnum(['pending', 'delivered'] as const),
    attempts: Type.Integer(),
    created_at: Type.String({ format: 'date-time' }),
    next_attempt_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'pending: when it is tried next',
    }),
    last_attempt_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    response_status: Type.Union([Type.Integer(), Type.Null()], { description: 'HTTP status of the last attempt' }),
    latency_ms: Type.Union([Type.Integer(), Type.Null()]),
    error: Type.Union([Type.String(), Type.Null()]),
    delivered_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { $id: 'WebhookDelivery' },
);

export const WebhookDeliveriesSchema = Type.Object(
  {
    deliveries: Type.Array(WebhookDeliverySchema, { description: 'newest first' }),
    next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'the next (older) page: `cursor=`' }),
  },
  { $id: 'WebhookDeliveries' },
);

export const WebhookDeliveriesQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  cursor: Type.Optional(Type.String({ pattern: '^[0-9]{1,16}$' })),
});

export const WebhookReplaySchema = Type.Object(
  {
    delivery_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'one delivery' })),
    since: Type.Optional(
      Type.String({ minLength: 1, description: 'every delivery made at or after this instant (ISO 8601)' }),
    ),
  },
  { additionalProperties: false, $id: 'WebhookReplay' },
);

export const WebhookReplayedSchema = Type.Object({ replayed: Type.Integer() }, { $id: 'WebhookReplayed' });

export const WebhookTestSchema = Type.Object(
  { delivery_id: Type.String({ description: 'the queued test delivery' }) },
  { $id: 'WebhookTestQueued' },
);
