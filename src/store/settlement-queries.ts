// Settlement entry queries shared by every SQL dialect: save, page newest first, changes since, counters' start.
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { SettlementsTable, StoreDatabase } from './schema.js';
import type {
  SettlementChangesCount,
  SettlementChangesQuery,
  SettlementCounts,
  SettlementPageQuery,
  SettlementRecord,
} from './store.js';

export function settlementToRow(r: SettlementRecord): SettlementsTable {
  return {
    event_id: r.eventId,
    ended_at: r.endedAt,
    updated_at: r.updatedAt,
    revision: r.revision,
    resolved_count: r.resolvedCount,
    total_count: r.totalCount,
    pending_count: r.pendingCount,
    header: JSON.stringify(r.header),
    markets: r.marketsJson,
  };
}

export function rowToSettlement(row: SettlementsTable): SettlementRecord {
  return {
    eventId: row.event_id,
    endedAt: Number(row.ended_at),
    updatedAt: Number(row.updated_at),
    revision: Number(row.revision),
    resolvedCount: Number(row.resolved_count),
    totalCount: Number(row.total_count),
    pendingCount: Number(row.pending_count),
    header: JSON.parse(row.header) as SettlementRecord['header'],
    marketsJson: row.markets,
  };
}

export async function saveSettlement(db: Kysely<StoreDatabase>, r: SettlementRecord): Promise<void> {
  await db
    .insertInto('settlements')
    .values(settlementToRow(r))
    .onConflict((oc) =>
      oc.column('event_id').doUpdateSet((eb) => ({
        ended_at: eb.ref('excluded.ended_at'),
        updated_at: eb.ref('excluded.updated_at'),
        revision: eb.ref('excluded.revision'),
        resolved_count: eb.ref('excluded.resolved_count'),
        total_count: eb.ref('excluded.total_count'),
        pending_count: eb.ref('excluded.pending_count'),
        header: eb.ref('excluded.header'),
        markets: eb.ref('excluded.markets'),
      })),
    )
    .execute();
}

type Q = SelectQueryBuilder<StoreDatabase, 'settlements', SettlementsTable>;

function filtered(q: Q, minEndedAt: number, eventIds: string[] | null): Q {
  let out = q.where('ended_at', '>=', minEndedAt);
  if (eventIds !== null) out = out.where('event_id', 'in', eventIds.length > 0 ? eventIds : ['']);
  return out;
}

/** The query of a feed page, newest first; the cursor continues strictly after (ended_at, event_id) in that order. */
export function settlementPageQuery(db: Kysely<StoreDatabase>, q: SettlementPageQuery) {
  let query = filtered(db.selectFrom('settlements').selectAll(), q.minEndedAt, q.eventIds);
  if (q.after !== null) {
    const { at, eventId } = q.after;
    // A row-value comparison, not `a < x OR (a = x AND b < y)`: SQLite and PostgreSQL turn it into
    // one range of the (ended_at, event_id) index, where the OR form scanned from the top.
    query = query.where((eb) => eb(eb.refTuple('ended_at', 'event_id'), '<', eb.tuple(at, eventId)));
  }
  return query.orderBy('ended_at', 'desc').orderBy('event_id', 'desc').limit(q.limit).offset(q.offset);
}

export async function listSettlements(db: Kysely<StoreDatabase>, q: SettlementPageQuery): Promise<SettlementRecord[]> {
  const rows = await settlementPageQuery(db, q).execute();
  return rows.map(rowToSettlement);
}

/** Oldest change first, strictly after (updated_at, event_id). */
export async function listSettlementChanges(
  db: Kysely<StoreDatabase>,
  q: SettlementChangesQuery,
): Promise<SettlementRecord[]> {
  const { at, eventId } = q.after;
  const rows = await filtered(db.selectFrom('settlements').selectAll(), q.minEndedAt, q.eventIds)
    .where((eb) =>
      eb.or([eb('updated_at', '>', at), eb.and([eb('updated_at', '=', at), eb('event_id', '>', eventId)])]),
    )
    .orderBy('updated_at', 'asc')
    .orderBy('event_id', 'asc')
    .limit(q.limit)
    .execute();
  return rows.map(rowToSettlement);
}

export async function settlementSummaries(
  db: Kysely<StoreDatabase>,
  minEndedAt: number,
): Promise<Array<{ eventId: string; endedAt: number; pendingCount: number }>> {
  const rows = await db
    .selectFrom('settlements')
    .select(['event_id', 'ended_at', 'pending_count'])
    .where('ended_at', '>=', minEndedAt)
    .execute();
  return rows.map((r) => ({ eventId: r.event_id, endedAt: Number(r.ended_at), pendingCount: Number(r.pending_count) }));
}

export async function countSettlementChanges(
  db: Kysely<StoreDatabase>,
  q: SettlementChangesCount,
): Promise<SettlementCounts> {
  const { at, eventId } = q.after;
  const row = await filtered(db.selectFrom('settlements').selectAll(), q.minEndedAt, q.eventIds)
    .clearSelect()
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      // The envelope's counters count the entries the filter matched, as `total` does (decisions.md).
      sql<number>`coalesce(sum(case when ended_at >= ${q.detailFrom} and pending_count = 0 then 1 else 0 end), 0)`.as(
        'settled',
      ),
      sql<number>`coalesce(sum(case when ended_at < ${q.detailFrom} then 1 else 0 end), 0)`.as('score_only'),
    ])
    .where((eb) =>
      eb.or([eb('updated_at', '>', at), eb.and([eb('updated_at', '=', at), eb('event_id', '>', eventId)])]),
    )
    .executeTakeFirst();
  return {
    total: Number(row?.n ?? 0),
    fullySettled: Number(row?.settled ?? 0),
    scoreOnly: Number(row?.score_only ?? 0),
  };
}
