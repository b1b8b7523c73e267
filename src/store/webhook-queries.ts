// Webhook queries shared by every SQL dialect: subscriptions, the outbox and delivery log, the derivation cursor.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { OddsFormat } from '../domain/types.js';
import type {
  WebhookDelivery,
  WebhookDeliveryStatus,
  WebhookDisabledReason,
  WebhookSubscription,
  WebhookType,
} from '../domain/webhooks.js';
import type { StoreDatabase, WebhookDeliveriesTable, WebhooksTable } from './schema.js';
import type { Store } from './store.js';
import { inTransaction } from './transactions.js';
import type {
  NewWebhookDelivery,
  WebhookAttemptWrite,
  WebhookCursor,
  WebhookQueueStats,
  WebhookStore,
} from './webhook-store.js';

const listOrNull = (text: string | null): string[] | null => (text === null ? null : (JSON.parse(text) as string[]));
const numOrNull = (v: number | null): number | null => (v === null ? null : Number(v));

function rowToWebhook(row: WebhooksTable): WebhookSubscription {
  return {
    id: row.id,
    keyId: row.key_id,
    url: row.url,
    types: JSON.parse(row.types) as WebhookType[],
    sport: row.sport,
    league: row.league,
    eventIds: listOrNull(row.event_ids),
    markets: listOrNull(row.markets),
    oddsFormat: row.odds_format as OddsFormat,
    enabled: Number(row.enabled) === 1,
    disabledReason: row.disabled_reason as WebhookDisabledReason | null,
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretUntil: numOrNull(row.previous_secret_until),
    failingSince: numOrNull(row.failing_since),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function webhookToRow(s: WebhookSubscription): WebhooksTable {
  return {
    id: s.id,
    key_id: s.keyId,
    url: s.url,
    types: JSON.stringify(s.types),
    sport: s.sport,
    league: s.league,
    event_ids: s.eventIds === null ? null : JSON.stringify(s.eventIds),
    markets: s.markets === null ? null : JSON.stringify(s.markets),
    odds_format: s.oddsFormat,
    enabled: s.enabled ? 1 : 0,
    disabled_reason: s.disabledReason,
    secret: s.secret,
    previous_secret: s.previousSecret,
    previous_secret_until: s.previousSecretUntil,
    failing_since: s.failingSince,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
  };
}

function rowToDelivery(row: WebhookDeliveriesTable): WebhookDelivery {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    seq: Number(row.seq),
    type: row.type as WebhookDelivery['type'],
    body: row.body,
    position: row.position,
    createdAt: Number(row.created_at),
    status: row.status as WebhookDeliveryStatus,
    attempts: Number(row.attempts),
    nextAttemptAt: Number(row.next_attempt_at),
    lastAttemptAt: numOrNull(row.last_attempt_at),
    lastStatus: numOrNull(row.last_status),
    lastError: row.last_error,
    lastLatencyMs: numOrNull(row.last_latency_ms),
    deliveredAt: numOrNull(row.delivered_at),
  };
}

/** Rows per insert statement (15 columns each, well under either engine's parameter limit). */
const DELIVERIES_PER_STATEMENT = 500;

/**
 * PostgreSQL runs transactions side by side (read committed): two creations of one key would both
 * count under the limit, and two appends (the outbox, an API node's test event) would both read
 * the same `max(seq)`. A transaction-scoped advisory lock, named by schema so two installations in
 * one database do not wait on each other, makes each of those a queue. SQLite has one writer.
 */
async function serialize(kind: Store['kind'], trx: Transaction<StoreDatabase>, name: string): Promise<void> {
  if (kind !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(hashtext(current_schema() || ${`:${name}`}))`.execute(trx);
}

export function webhookQueries(
  db: Kysely<StoreDatabase>,
  read: <T>(name: string, fn: () => Promise<T>) => Promise<T>,
  write: <T>(name: string, fn: () => Promise<T>) => Promise<T>,
  kind: Store['kind'],
): WebhookStore {
  return {
    createWebhook: (sub, limit) =>
      write('createWebhook', () =>
        inTransaction(db, async (trx) => {
          if (limit !== null) await serialize(kind, trx, `webhooks:${sub.keyId}`);
          if (limit !== null) {
            const row = await trx
              .selectFrom('webhooks')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('key_id', '=', sub.keyId)
              .executeTakeFirstOrThrow();
            if (Number(row.n) >= limit) return false;
          }
          await trx.insertInto('webhooks').values(webhookToRow(sub)).execute();
          return true;
        }),
      ),

    getWebhook: (id) =>
      read('getWebhook', async () => {
        const row = await db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
        return row === undefined ? null : rowToWebhook(row);
      }),

    listWebhooksOfKey: (keyId) =>
      read('listWebhooksOfKey', async () =>
        (
          await db
            .selectFrom('webhooks')
            .selectAll()
            .where('key_id', '=', keyId)
            .orderBy('created_at')
            .orderBy('id')
            .execute()
        ).map(rowToWebhook),
      ),

    listEnabledWebhooks: () =>
      read('listEnabledWebhooks', async () =>
        (await db.selectFrom('webhooks').selectAll().where('enabled', '=', 1).orderBy('id').execute()).map(
          rowToWebhook,
        ),
      ),

    webhooksVersion: () =>
      read('webhooksVersion', async () => {
        const row = await db
          .selectFrom('webhooks')
          .select((eb) => [
            eb.fn.countAll<number>().as('n'),
            eb.fn.sum<number>('enabled').as('on'),
            eb.fn.max('updated_at').as('at'),
          ])
          .executeTakeFirst();
        return `${Number(row?.n ?? 0)}:${Number(row?.on ?? 0)}:${Number(row?.at ?? 0)}`;
      }),

    updateWebhook: (sub) =>
      write('updateWebhook', async () => {
        const { id: _id, key_id: _key, created_at: _created, ...fields } = webhookToRow(sub);
        await db.updateTable('webhooks').set(fields).where('id', '=', sub.id).execute();
      }),

    deleteWebhook: (id) =>
      write('deleteWebhook', () =>
        inTransaction(db, async (trx) => {
          await trx.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
          const res = await trx.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst();
          return Number(res.numDeletedRows) > 0;
        }),
      ),

    webhookCursor: () =>
      read('webhookCursor', async () => {
        const row = await db.selectFrom('webhook_cursor').selectAll().where('id', '=', 1).executeTakeFirst();
        return row === undefined ? null : { ms: Number(row.pos_ms), seq: Number(row.pos_seq) };
      }),

    appendWebhookDeliveries: (deliveries: readonly NewWebhookDelivery[], cursor: WebhookCursor | null) =>
      write('appendWebhookDeliveries', () =>
        inTransaction(db, async (trx) => {
          if (deliveries.length > 0) {
            await serialize(kind, trx, 'webhook_deliveries');
            const top = await trx
              .selectFrom('webhook_deliveries')
              .select((eb) => eb.fn.max('seq').as('seq'))
              .executeTakeFirst();
            let seq = Number(top?.seq ?? 0);
            const rows: WebhookDeliveriesTable[] = deliveries.map((d) => ({
              id: d.id,
              webhook_id: d.webhookId,
              seq: ++seq,
              type: d.type,
              body: d.body,
              position: d.position,
              created_at: d.createdAt,
              status: d.status,
              attempts: d.attempts,
              next_attempt_at: d.nextAttemptAt,
              last_attempt_at: d.lastAttemptAt,
              last_status: d.lastStatus,
              last_error: d.lastError,
              last_latency_ms: d.lastLatencyMs,
              delivered_at: d.deliveredAt,
            }));
            for (let i = 0; i < rows.length; i += DELIVERIES_PER_STATEMENT) {
              await trx
                .insertInto('webhook_deliveries')
                .values(rows.slice(i, i + DELIVERIES_PER_STATEMENT))
                .execute();
            }
          }
          if (cursor !== null) {
            await trx
              .insertInto('webhook_cursor')
              .values({ id: 1, pos_ms: cursor.ms, pos_seq: cursor.seq })
              .onConflict((oc) =>
                oc.column('id').doUpdateSet((eb) => ({
                  pos_ms: eb.ref('excluded.pos_ms'),
                  pos_seq: eb.ref('excluded.pos_seq'),
                })),
              )
              .execute();
          }
        }),
      ),

    dueWebhookDeliveries: (now, busy, limit) =>
      read('dueWebhookDeliveries', async () => {
        let q = db
          .selectFrom('webhook_deliveries as d')
          .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
          .selectAll('d')
          .where('w.enabled', '=', 1)
          .where('d.status', '=', 'pending')
          .where('d.next_attempt_at', '<=', now)
          // Only each subscription's head: a later delivery never overtakes an earlier one.
          .where((eb) =>
            eb(
              'd.seq',
              '=',
              eb
                .selectFrom('webhook_deliveries as h')
                .select((h) => h.fn.min('h.seq').as('seq'))
                .whereRef('h.webhook_id', '=', 'd.webhook_id')
                .where('h.status', '=', 'pending'),
            ),
          );
        if (busy.length > 0) q = q.where('d.webhook_id', 'not in', [...busy]);
        const rows = await q.orderBy('d.next_attempt_at').orderBy('d.seq').limit(limit).execute();
        return rows.map(rowToDelivery);
      }),

    recordWebhookAttempt: (w: WebhookAttemptWrite) =>
      write('recordWebhookAttempt', () =>
        inTransaction(db, async (trx) => {
          await trx
            .updateTable('webhook_deliveries')
            .set((eb) => ({
              attempts: eb('attempts', '+', 1),
              last_attempt_at: w.at,
              last_status: w.outcome.status,
              last_error: w.outcome.error,
              last_latency_ms: Math.round(w.outcome.latencyMs),
              ...(w.outcome.ok ? { status: 'delivered', delivered_at: w.at } : { next_attempt_at: w.nextAttemptAt }),
            }))
            .where('id', '=', w.deliveryId)
            .execute();
          await trx
            .updateTable('webhooks')
            .set({
              failing_since: w.failingSince,
              ...(w.disable ? { enabled: 0, disabled_reason: 'failing', updated_at: w.at } : {}),
            })
            .where('id', '=', w.webhookId)
            .execute();
        }),
      ),

    listWebhookDeliveries: (webhookId, beforeSeq, limit) =>
      read('listWebhookDeliveries', async () => {
        let q = db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId);
        if (beforeSeq !== null) q = q.where('seq', '<', beforeSeq);
        return (await q.orderBy('seq', 'desc').limit(limit).execute()).map(rowToDelivery);
      }),

    replayWebhookDeliveries: (webhookId, which, now) =>
      write('replayWebhookDeliveries', async () => {
        let q = db
          .updateTable('webhook_deliveries')
          .set({ status: 'pending', next_attempt_at: now, delivered_at: null })
          .where('webhook_id', '=', webhookId);
        q = 'id' in which ? q.where('id', '=', which.id) : q.where('created_at', '>=', which.since);
        const res = await q.executeTakeFirst();
        return Number(res.numUpdatedRows);
      }),

    deleteDeliveredWebhooksBefore: (before) =>
      write('deleteDeliveredWebhooksBefore', async () => {
        const res = await db
          .deleteFrom('webhook_deliveries')
          .where('status', '=', 'delivered')
          .where('created_at', '<', before)
          .executeTakeFirst();
        return Number(res.numDeletedRows);
      }),

    webhookQueueStats: () =>
      read('webhookQueueStats', async (): Promise<WebhookQueueStats> => {
        const row = await db
          .selectFrom('webhook_deliveries as d')
          .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
          .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('d.created_at').as('oldest')])
          .where('d.status', '=', 'pending')
          .where('w.enabled', '=', 1)
          .executeTakeFirst();
        const oldest = row?.oldest;
        return {
          pending: Number(row?.n ?? 0),
          oldestPendingAt: oldest === null || oldest === undefined ? null : Number(oldest),
        };
      }),
  };
}
