// Section `settle`: time from a result to the main markets settled (and to every non-prop market) for 1,000-market soccer games, in-process.
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { parseResolved } from '../src/domain/resolved-market.js';
import { validateFeedMessage, type FeedMessage } from '../src/feed/messages.js';
import { createService, type Service } from '../src/service.js';
import type { SettlementRecord } from '../src/store/store.js';
import { median } from './measure.js';
import { check, type BenchContext, type Section, type SectionResult } from './section.js';
import { benchWorld, finishedGame, isMainMarket, isPlayerProp, type FinishedGame } from './settlement-books.js';

const GAMES = 7;
const TARGET_MAIN_MS = 1000;
/** A game whose main markets are not settled by then counts as failed rather than hanging the run. */
const TIMEOUT_MS = 60_000;

interface GameTiming {
  eventId: string;
  markets: number;
  mainMarkets: number;
  playerProps: number;
  /** Result applied → the first stored entry holding every main market was published. */
  mainMs: number;
  /** Result applied → settlement idle (every market but the player props, which wait for final stats). */
  allMs: number;
  /** Commits (entry revisions) it took. */
  commits: number;
  /** Final stats applied → settlement idle (every player prop graded); null when the game has no final stats. */
  propsMs: number | null;
}

function validated(m: FeedMessage): FeedMessage {
  const v = validateFeedMessage(m);
  if (!v.ok) throw new Error(`the simulator produced an invalid ${m.type} message: ${v.message}`);
  return v.message;
}

function holdsAll(record: SettlementRecord, marketIds: ReadonlySet<number>): boolean {
  const resolved = new Set(parseResolved(record.marketsJson).map((m) => m.market_id));
  for (const id of marketIds) if (!resolved.has(id)) return false;
  return true;
}

/**
 * Resolves with the instant (performance.now) at which the first `settlement` change of the event
 * was published whose entry holds every main market. The entry is read after each change; its
 * revision says which change committed it (a fresh entry's revision r is its r-th commit), so a
 * read that lands after a later commit still dates the right one.
 */
function mainMarketsSettled(
  service: Service,
  eventId: string,
  mainIds: ReadonlySet<number>,
): { done: Promise<number>; publishes: number[]; stop: () => void } {
  const publishes: number[] = [];
  let firstFull = Number.POSITIVE_INFINITY;
  let resolve: (at: number) => void = () => undefined;
  let reject: (err: Error) => void = () => undefined;
  const done = new Promise<number>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const settleIfKnown = (): void => {
    const at = publishes[firstFull - 1];
    if (at !== undefined) resolve(at);
  };
  const unsubscribe = service.log.subscribe((c) => {
    if (c.kind !== 'settlement' || c.eventId !== eventId) return;
    publishes.push(performance.now());
    service.store.getSettlement(eventId).then((record) => {
      if (record !== null && holdsAll(record, mainIds)) firstFull = Math.min(firstFull, record.revision);
      settleIfKnown();
    }, reject);
  });
  const timer = setTimeout(
    () => reject(new Error(`${eventId}: main markets not settled within ${TIMEOUT_MS} ms`)),
    TIMEOUT_MS,
  );
  return {
    done,
    publishes,
    stop: () => {
      clearTimeout(timer);
      unsubscribe();
    },
  };
}

async function timeGame(service: Service, game: FinishedGame, setClock: (t: number) => void): Promise<GameTiming> {
  const resultAt = game.messages.findIndex((m) => m.type === 'result');
  const result = game.messages[resultAt]!;
  for (const m of game.messages.slice(0, resultAt)) {
    if (m.ts !== undefined) setClock(Date.parse(m.ts));
    const [outcome] = await service.pipeline.applyAll([validated(m)]);
    if (outcome === undefined || !outcome.ok) {
      throw new Error(`${game.eventId}: the pipeline refused a ${m.type} message: ${JSON.stringify(outcome)}`);
    }
  }
  // Each game starts from the same state: its odds and scores written, nothing else in flight.
  await service.pipeline.flush();
  await service.settlement.idle();

  const le = service.readModel.get(game.eventId);
  if (le === undefined) throw new Error(`${game.eventId} is not in the read model`);
  const markets = le.book.markets();
  const mainIds = new Set(markets.filter((m) => isMainMarket(m.key)).map((m) => m.marketId));
  const playerProps = markets.filter((m) => isPlayerProp(m.key)).length;

  const validResult = validated(result);
  if (result.ts !== undefined) setClock(Date.parse(result.ts));
  const watch = mainMarketsSettled(service, game.eventId, mainIds);
  const t0 = performance.now();
  let allAt: number;
  let mainAt: number;
  try {
    const [outcome] = await service.pipeline.applyAll([validResult]);
    if (outcome === undefined || !outcome.ok)
      throw new Error(`${game.eventId}: the result was refused: ${JSON.stringify(outcome)}`);
    await service.settlement.idle();
    allAt = performance.now();
    mainAt = await watch.done;
  } finally {
    watch.stop();
  }

  const entry = await service.store.getSettlement(game.eventId);
  if (entry === null) throw new Error(`${game.eventId}: no settlement entry after settlement went idle`);
  if (entry.totalCount !== markets.length || entry.pendingCount !== playerProps) {
    throw new Error(
      `${game.eventId}: entry has ${entry.resolvedCount}/${entry.totalCount} resolved, ${entry.pendingCount} pending; ` +
        `expected every market but the ${playerProps} player props of ${markets.length}`,
    );
  }

  // Then the final stats: the player props settle too (information; no target).
  const finalStats = game.messages.slice(resultAt + 1).find((m) => m.type === 'stats' && m.final === true);
  let propsMs: number | null = null;
  if (finalStats !== undefined) {
    const valid = validated(finalStats);
    if (finalStats.ts !== undefined) setClock(Date.parse(finalStats.ts));
    const t1 = performance.now();
    await service.pipeline.applyAll([valid]);
    await service.settlement.idle();
    propsMs = performance.now() - t1;
    const done = await service.store.getSettlement(game.eventId);
    if (done === null || done.pendingCount !== 0 || done.resolvedCount !== markets.length) {
      throw new Error(
        `${game.eventId}: after the final stats the entry still has ${done?.pendingCount ?? '?'} pending markets`,
      );
    }
  }
  return {
    eventId: game.eventId,
    markets: markets.length,
    propsMs,
    mainMarkets: mainIds.size,
    playerProps,
    mainMs: mainAt - t0,
    allMs: allAt - t0,
    commits: watch.publishes.length,
  };
}

async function run(ctx: BenchContext): Promise<SectionResult> {
  const started = Date.now();
  const world = benchWorld();
  // Seven different fixtures of the top soccer league, a day apart (so their ids differ too).
  const games = Array.from({ length: GAMES }, (_, i) =>
    finishedGame({ seed: 101 + i, sport: 'soccer', day: i, world, teams: [2 * i, 2 * i + 1] }),
  );
  ctx.log(`played ${GAMES} soccer games in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const dataDir = join(ctx.tempDir, 'settle', 'data');
  await mkdir(dataDir, { recursive: true });
  // The service's clock follows the feed (each message's ts), so the games are "now" whatever the calendar says.
  let clock = Date.parse(games[0]!.messages[0]!.ts ?? new Date().toISOString());
  const setClock = (t: number): void => {
    if (t > clock) clock = t;
  };
  const config = loadConfig({
    DATA_DIR: dataDir,
    FEED: 'none',
    PORT: '0',
    ADMIN_KEY: `admin_bench_${randomBytes(12).toString('hex')}`,
    DEMO_API_KEY: `sk_bench_${randomBytes(12).toString('hex')}`,
    LOG_LEVEL: 'silent',
    // The default batch size unless the caller experiments with another.
    ...(process.env.SETTLEMENT_BATCH_SIZE !== undefined
      ? { SETTLEMENT_BATCH_SIZE: process.env.SETTLEMENT_BATCH_SIZE }
      : {}),
  });
  const service = await createService(config, { now: () => clock });
  const timings: GameTiming[] = [];
  try {
    for (const game of games) {
      const t = await timeGame(service, game, setClock);
      timings.push(t);
      ctx.log(
        `[settle] ${t.eventId}: ${t.markets} markets (${t.mainMarkets} main, ${t.playerProps} player props), ` +
          `main markets settled ${t.mainMs.toFixed(1)} ms, all but props ${t.allMs.toFixed(1)} ms (${t.commits} commit(s)); ` +
          `final stats → props settled ${t.propsMs?.toFixed(1) ?? '-'} ms`,
      );
    }
  } finally {
    await service.close();
  }

  const mainMedian = median(timings.map((t) => t.mainMs));
  const mainMax = Math.max(...timings.map((t) => t.mainMs));
  const allMedian = median(timings.map((t) => t.allMs));
  const allMax = Math.max(...timings.map((t) => t.allMs));
  const props = timings.flatMap((t) => (t.propsMs === null ? [] : [t.propsMs]));
  const seconds = (Date.now() - started) / 1000;
  const first = timings[0]!;
  return {
    rows: [],
    checks: [
      check(
        'settle',
        `settle: result → main markets settled, median (max ${mainMax.toFixed(1)} ms)`,
        mainMedian,
        '<=',
        TARGET_MAIN_MS,
        'ms',
      ),
    ],
    notes: [
      `settle: ${GAMES} top-league soccer games of ${timings.map((t) => t.markets).join(', ')} markets ` +
        `(e.g. ${first.mainMarkets} main, ${first.playerProps} player props left pending: no final stats yet), ` +
        `SETTLEMENT_BATCH_SIZE ${config.settlementBatchSize}`,
      `settle: result → main markets settled: median ${mainMedian.toFixed(1)} ms, max ${mainMax.toFixed(1)} ms ` +
        `(each: ${timings.map((t) => t.mainMs.toFixed(1)).join(', ')})`,
      `settle: result → every non-prop market settled: median ${allMedian.toFixed(1)} ms, max ${allMax.toFixed(1)} ms ` +
        `(each: ${timings.map((t) => t.allMs.toFixed(1)).join(', ')})`,
      `settle: final stats → player props settled (information): median ${median(props).toFixed(1)} ms, ` +
        `max ${Math.max(...props).toFixed(1)} ms`,
      `settle: section took ${seconds.toFixed(1)} s`,
    ],
    data: {
      games: timings,
      mainMedianMs: mainMedian,
      mainMaxMs: mainMax,
      allMedianMs: allMedian,
      allMaxMs: allMax,
      seconds,
    },
  };
}

export const settleSection: Section = {
  name: 'settle',
  description: 'time from a result to the main markets settled, 7 soccer games of ~1,060 markets (in-process service)',
  run,
};
