// Outright queries shared by every SQL dialect: tournaments, markets, results and the outright settlement feed.
import type { Kysely, Transaction } from 'kysely';
import type {
  OutrightEntry,
  OutrightEntryResult,
  OutrightMarket,
  OutrightResult,
  OutrightSelection,
  TournamentInfo,
} from '../domain/outrights.js';
import type { OutrightSettlementsTable, StoreDatabase } from './schema.js';
import { inTransaction } from './transactions.js';
import type { OutrightSettlementQuery, StoredTournament } from './store.js';

const ENTRY_COLUMNS = 11;

function entryToRow(e: OutrightEntry): OutrightSettlementsTable {
  return {
    entry_id: e.entryId,
    tournament_id: e.tournamentId,
    tournament: e.tournament,
    market_id: e.marketId,
    market: e.market,
    selection_id: e.selectionId,
    selection: e.selection,
    result: e.result,
    dead_heat_factor: e.deadHeatFactor,
    settled_at: e.settledAt,
    sport: e.sport,
  };
}

// Number() because some drivers (node-postgres) hand 64-bit integers back as strings.
function rowToEntry(row: OutrightSettlementsTable): OutrightEntry {
  return {
    entryId: row.entry_id,
    tournamentId: row.tournament_id,
    tournament: row.tournament,
    marketId: Number(row.market_id),
    market: row.market,
    selectionId: Number(row.selection_id),
    selection: row.selection,
    result: row.result as OutrightEntryResult,
    deadHeatFactor: row.dead_heat_factor === null ? null : Number(row.dead_heat_factor),
    settledAt: Number(row.settled_at),
    sport: row.sport,
  };
}

export async function saveTournament(db: Kysely<StoreDatabase>, t: TournamentInfo): Promise<void> {
  await db
    .insertInto('outright_tournaments')
    .values({ tournament_id: t.tournamentId, tournament: t.tournament, sport: t.sport, sport_id: t.sportId })
    .onConflict((oc) =>
      oc.column('tournament_id').doUpdateSet((eb) => ({
        tournament: eb.ref('excluded.tournament'),
        sport: eb.ref('excluded.sport'),
        sport_id: eb.ref('excluded.sport_id'),
      })),
    )
    .execute();
}

export async function saveOutrightMarket(
  db: Kysely<StoreDatabase>,
  tournamentId: string,
  m: OutrightMarket,
): Promise<void> {
  await db
    .insertInto('outright_markets')
    .values({
      tournament_id: tournamentId,
      market_id: m.marketId,
      market: m.market,
      selections: JSON.stringify(m.selections),
      updated_at: m.updatedAt,
      result: null,
    })
    .onConflict((oc) =>
      oc.columns(['tournament_id', 'market_id']).doUpdateSet((eb) => ({
        market: eb.ref('excluded.market'),
        selections: eb.ref('excluded.selections'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
}

export async function settleOutrightMarket(
  trx: Transaction<StoreDatabase>,
  tournamentId: string,
  marketId: number,
  result: OutrightResult,
  entries: readonly OutrightEntry[],
  maxParameters: number,
): Promise<void> {
  const updated = await trx
    .updateTable('outright_markets')
    .set({ result: JSON.stringify(result) })
    .where('tournament_id', '=', tournamentId)
    .where('market_id', '=', marketId)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) {
    throw new Error(`outright market ${marketId} of '${tournamentId}' is not stored`);
  }
  await trx
    .deleteFrom('outright_settlements')
    .where('tournament_id', '=', tournamentId)
    .where('market_id', '=', marketId)
    .execute();
  const perStatement = Math.max(1, Math.floor(maxParameters / ENTRY_COLUMNS));
  for (let i = 0; i < entries.length; i += perStatement) {
    await trx
      .insertInto('outright_settlements')
      .values(entries.slice(i, i + perStatement).map(entryToRow))
      .execute();
  }
}

export async function loadOutrights(db: Kysely<StoreDatabase>): Promise<StoredTournament[]> {
  // Repeatable read: one snapshot for both statements on PostgreSQL too (SQLite always has one).
  return inTransaction(
    db,
    async (trx) => {
      const tournaments = await trx.selectFrom('outright_tournaments').selectAll().orderBy('tournament_id').execute();
      const markets = await trx
        .selectFrom('outright_markets')
        .selectAll()
        .orderBy('tournament_id')
        .orderBy('market_id')
        .execute();
      const byTournament = new Map<string, StoredTournament['markets']>();
      for (const row of markets) {
        let list = byTournament.get(row.tournament_id);
        if (list === undefined) byTournament.set(row.tournament_id, (list = []));
        // Documents are only written by this module: they have the shape they were written with.
        list.push({
          market: {
            marketId: Number(row.market_id),
            market: row.market,
            selections: JSON.parse(row.selections) as OutrightSelection[],
            updatedAt: Number(row.updated_at),
          },
          result: row.result === null ? null : (JSON.parse(row.result) as OutrightResult),
        });
      }
      return tournaments.map((row) => ({
        tournament: {
          tournamentId: row.tournament_id,
          tournament: row.tournament,
          sport: row.sport,
          sportId: Number(row.sport_id),
        },
        markets: byTournament.get(row.tournament_id) ?? [],
      }));
    },
    'repeatable read',
  );
}

/** The query of a feed page, newest first; the cursor continues strictly after (settled_at, entry_id). */
export function outrightPageQuery(db: Kysely<StoreDatabase>, q: OutrightSettlementQuery) {
  let query = db.selectFrom('outright_settlements').selectAll();
  if (q.tournamentIds !== null) {
    query = query.where('tournament_id', 'in', q.tournamentIds.length > 0 ? q.tournamentIds : ['']);
  }
  if (q.after !== null) {
    const { settledAt, entryId } = q.after;
    // A row-value comparison: one range of the (settled_at, entry_id) index on SQLite and PostgreSQL,
    // where `a < x OR (a = x AND b < y)` scans from the top.
    query = query.where((eb) => eb(eb.refTuple('settled_at', 'entry_id'), '<', eb.tuple(settledAt, entryId)));
  }
  return query.orderBy('settled_at', 'desc').orderBy('entry_id', 'desc').limit(q.limit).offset(q.offset);
}

export async function listOutrightSettlements(
  db: Kysely<StoreDatabase>,
  q: OutrightSettlementQuery,
): Promise<OutrightEntry[]> {
  const rows = await outrightPageQuery(db, q).execute();
  return rows.map(rowToEntry);
}

export async function countOutrightSettlements(
  db: Kysely<StoreDatabase>,
  tournamentIds: string[] | null,
): Promise<number> {
  let query = db.selectFrom('outright_settlements').select((eb) => eb.fn.countAll<number>().as('n'));
  if (tournamentIds !== null) {
    query = query.where('tournament_id', 'in', tournamentIds.length > 0 ? tournamentIds : ['']);
  }
  const row = await query.executeTakeFirst();
  return Number(row?.n ?? 0);
}
