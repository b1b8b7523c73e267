// The change log's replay window in the store: segments written with each flush, the counters that say what they account for.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { StoreDatabase } from './schema.js';
import type { LogSegment, LogWindowWrite, StoredLogWindow } from './store.js';

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
  // A new leader's term starts a new run: what earlier terms stored is not known to be its log's.
  if (w.run?.reset === true) await trx.deleteFrom('log_segments').execute();
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
  if (w.run !== undefined) {
    // Scaled out, `through` is the run's head (a flush with no new entry still says the run reaches it).
    await setState(trx, 'through_ms', w.run.through.ms, false);
    await setState(trx, 'through_seq', w.run.through.seq, false);
    await setState(trx, 'run_epoch', w.run.epoch, false);
    await setState(trx, 'run_from_ms', w.run.from.ms, false);
    await setState(trx, 'run_from_seq', w.run.from.seq, false);
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

/**
 * The stored window: its counters and the segments ending at or after `fromMs`, oldest first,
 * read newest first a page at a time and no further than `maxBytes` of segment data past what is
 * needed (a restart holds no more than its window's memory, whatever an earlier run stored).
 */
export async function loadLogWindow(
  db: Kysely<StoreDatabase>,
  fromMs: number,
  maxBytes: number,
  dataBytes = Number.POSITIVE_INFINITY,
): Promise<StoredLogWindow> {
  const state = new Map(
    (await db.selectFrom('log_state').select(['name', 'value']).execute()).map((r) => [r.name, Number(r.value)]),
  );
  const segments: StoredLogWindow['segments'] = [];
  let bytes = 0;
  let before: { ms: number; seq: number } | null = null;
  let exhausted = false;
  while (bytes < maxBytes) {
    // Past the bytes a restart keeps in memory, a page reads each segment's size, not its bytes.
    const withData = bytes < dataBytes;
    let q = db
      .selectFrom('log_segments')
      .select(['from_ms', 'from_seq', 'to_ms', 'to_seq', 'count'])
      .select(withData ? sql<Uint8Array>`data`.as('data') : sql<null>`null`.as('data'))
      .select(sql<number>`length(data)`.as('size'))
      .where('to_ms', '>=', fromMs);
    if (before !== null) {
      const { ms, seq } = before;
      q = q.where((eb) => eb.or([eb('to_ms', '<', ms), eb.and([eb('to_ms', '=', ms), eb('to_seq', '<', seq)])]));
    }
    const rows = await q.orderBy('to_ms', 'desc').orderBy('to_seq', 'desc').limit(LOAD_PAGE).execute();
    let read = 0;
    for (const r of rows) {
      if (bytes >= maxBytes) break;
      const size = Number(r.size);
      // Within a page read with data, those past `dataBytes` drop theirs (whole segments, newest kept).
      const data = r.data !== null && bytes < dataBytes ? r.data : NO_DATA;
      const segment = {
        from: { ms: Number(r.from_ms), seq: Number(r.from_seq) },
        to: { ms: Number(r.to_ms), seq: Number(r.to_seq) },
        count: Number(r.count),
        data,
        size,
      };
      segments.push(segment);
      bytes += size;
      before = segment.to;
      read++;
    }
    if (rows.length < LOAD_PAGE) {
      exhausted = read === rows.length;
      break;
    }
  }
  // Every segment was read unless the bytes ran out first or older ones end before `fromMs`.
  let complete = false;
  if (exhausted) {
    const older = await db.selectFrom('log_segments').select('to_ms').where('to_ms', '<', fromMs).limit(1).execute();
    complete = older.length === 0;
  }
  const originMs = state.get('origin_ms');
  const throughMs = state.get('through_ms');
  const runEpoch = state.get('run_epoch');
  return {
    through: throughMs === undefined ? null : { ms: throughMs, seq: state.get('through_seq') ?? 0 },
    origin: originMs === undefined ? null : { ms: originMs, seq: state.get('origin_seq') ?? 0 },
    facts: state.get('facts') ?? 0,
    covered: state.get('covered') ?? 0,
    segments: segments.reverse(),
    complete,
    run:
      runEpoch === undefined
        ? null
        : { epoch: runEpoch, from: { ms: state.get('run_from_ms') ?? 0, seq: state.get('run_from_seq') ?? 0 } },
  };
}

/**
 * The stored segments that end within [`from`, `to`] (positions), oldest first: the part of the
 * window a resume reaches once the change log has let it go from memory (ChangeLog's cold segments).
 */
export async function readLogSegments(
  db: Kysely<StoreDatabase>,
  from: { ms: number; seq: number },
  to: { ms: number; seq: number },
): Promise<LogSegment[]> {
  const rows = await db
    .selectFrom('log_segments')
    .selectAll()
    .where((eb) =>
      eb.and([
        eb.or([eb('to_ms', '>', from.ms), eb.and([eb('to_ms', '=', from.ms), eb('to_seq', '>=', from.seq)])]),
        eb.or([eb('to_ms', '<', to.ms), eb.and([eb('to_ms', '=', to.ms), eb('to_seq', '<=', to.seq)])]),
      ]),
    )
    .orderBy('to_ms')
    .orderBy('to_seq')
    .execute();
  return rows.map((r) => ({
    from: { ms: Number(r.from_ms), seq: Number(r.from_seq) },
    to: { ms: Number(r.to_ms), seq: Number(r.to_seq) },
    count: Number(r.count),
    data: r.data,
  }));
}

const NO_DATA = new Uint8Array(0);

/** Segments read at a time by a restart (one a flush: 64 are about half a minute at the default interval). */
const LOAD_PAGE = 64;
