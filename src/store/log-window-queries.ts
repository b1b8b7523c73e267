// The change log's replay window in the store: segments written with each flush, the counters that say what they account for.
import type { Kysely, Transaction } from 'kysely';
import type { StoreDatabase } from './schema.js';
import type { LogWindowWrite, StoredLogWindow } from './store.js';

/**
 * Counts one committed fact whose change-log entry is appended after the commit (a result, a
 * settlement batch, an outright change), inside that commit's transaction: a restart that finds
 * more facts than its stored segments account for cannot prove its window (log-window.ts).
 */
export async function countFact(trx: Transaction<StoreDatabase>): Promise<void> {
  await trx
    .updateTable('log_state')
    .set((eb) => ({ value: eb('value', '+', 1) }))
    .where('name', '=', 'facts')
    .execute();
}

async function setState(trx: Transaction<StoreDatabase>, name: string, value: number, keep: boolean): Promise<void> {
  await trx
    .insertInto('log_state')
    .values({ name, value })
    .onConflict((oc) => (keep ? oc.column('name').doNothing() : oc.column('name').doUpdateSet({ value })))
    .execute();
}

/** Writes a flush's share of the change log (inside the flush's transaction). */
export async function writeLogWindow(trx: Transaction<StoreDatabase>, w: LogWindowWrite): Promise<void> {
  for (const s of w.segments) {
    await trx
      .insertInto('log_segments')
      .values({
        from_ms: s.from.ms,
        from_seq: s.from.seq,
        to_ms: s.to.ms,
        to_seq: s.to.seq,
        count: s.count,
        // A Buffer: better-sqlite3 binds Buffers (a Uint8Array from the writer thread is not one).
        data: Buffer.from(s.data.buffer, s.data.byteOffset, s.data.byteLength),
      })
      .onConflict((oc) => oc.columns(['to_ms', 'to_seq']).doNothing())
      .execute();
  }
  await setState(trx, 'covered', w.covered, false);
  const last = w.segments[w.segments.length - 1];
  if (last !== undefined) {
    await setState(trx, 'through_ms', last.to.ms, false);
    await setState(trx, 'through_seq', last.to.seq, false);
  }
  if (w.origin !== null) {
    await setState(trx, 'origin_ms', w.origin.ms, true);
    await setState(trx, 'origin_seq', w.origin.seq, true);
  }
  const { ms, seq } = w.pruneBefore;
  await trx
    .deleteFrom('log_segments')
    .where((eb) => eb.or([eb('to_ms', '<', ms), eb.and([eb('to_ms', '=', ms), eb('to_seq', '<', seq)])]))
    .execute();
}

/** The stored window: its counters and the segments ending at or after `fromMs`, oldest first. */
export async function loadLogWindow(db: Kysely<StoreDatabase>, fromMs: number): Promise<StoredLogWindow> {
  const state = new Map(
    (await db.selectFrom('log_state').select(['name', 'value']).execute()).map((r) => [r.name, Number(r.value)]),
  );
  const rows = await db
    .selectFrom('log_segments')
    .selectAll()
    .where('to_ms', '>=', fromMs)
    .orderBy('to_ms')
    .orderBy('to_seq')
    .execute();
  const originMs = state.get('origin_ms');
  const throughMs = state.get('through_ms');
  return {
    through: throughMs === undefined ? null : { ms: throughMs, seq: state.get('through_seq') ?? 0 },
    origin: originMs === undefined ? null : { ms: originMs, seq: state.get('origin_seq') ?? 0 },
    facts: state.get('facts') ?? 0,
    covered: state.get('covered') ?? 0,
    segments: rows.map((r) => ({
      from: { ms: Number(r.from_ms), seq: Number(r.from_seq) },
      to: { ms: Number(r.to_ms), seq: Number(r.to_seq) },
      count: Number(r.count),
      data: r.data,
    })),
  };
}
