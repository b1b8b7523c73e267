// A million settlement entries written straight into the store (the engine would take hours to grade them): the rows, and the SQLite data dir.
import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { ResolvedMarket } from '../src/domain/resolved-market.js';
import { buildWorld, type SimLeague } from '../src/feed/simulator/world.js';
import { DEFAULT_SQLITE_FILE, openSqliteStore } from '../src/store/sqlite-store.js';
import type { SettlementsTable } from '../src/store/schema.js';
import type { SettlementHeader } from '../src/store/store.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** Inside the 7-day detail window, so every entry is served with its markets. */
const SPREAD_DAYS = 6;

export interface SettlementFixture {
  entries: number;
  seconds: number;
  fileBytes: number;
  /** (ended_at, event_id) of random entries: cursor positions and ids to filter on. */
  samples: Array<{ endedAt: number; eventId: string }>;
}

/** A small seeded generator: the same data every run. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HAS_DRAW = new Set(['soccer', 'ice_hockey', 'handball', 'rugby', 'boxing']);

/** Five resolved markets as the engine stores them (src/pipeline/settlement/engine.ts toResolved). */
function resolvedMarkets(rand: () => number, sport: string, home: number, away: number): ResolvedMarket[] {
  const total = home + away;
  const line = Math.floor(total / 2) + 0.5;
  const side = home > away ? 0 : home < away ? 2 : 1;
  const pick = (i: number, won: number): 'won' | 'lost' => (i === won ? 'won' : 'lost');
  let sel = 1 + Math.floor(rand() * 5000);
  const out = (label: string, result: 'won' | 'lost' | 'refund', voidFactor?: number) => ({
    label,
    result,
    selection_id: sel++,
    // Realistic prices: the feed serves these as stored (decimal).
    opening_odds: Math.round((1.5 + rand() * 2) * 100) / 100,
    closing_odds: Math.round((1.5 + rand() * 2) * 100) / 100,
    ...(voidFactor !== undefined ? { void_factor: voidFactor } : {}),
  });
  const winner: ResolvedMarket = HAS_DRAW.has(sport)
    ? {
        key: '1x2',
        name: 'Match Result',
        market_id: 1,
        outcomes: [out('Home', pick(0, side)), out('Draw', pick(1, side)), out('Away', pick(2, side))],
      }
    : {
        key: 'moneyline',
        name: 'Match Winner',
        market_id: 1,
        outcomes: [out('Home', side === 0 ? 'won' : 'lost'), out('Away', side === 2 ? 'won' : 'lost')],
      };
  const over = total > line;
  const diff = home - away;
  // A quarter line: half the stake refunded on a draw, as the catalog grades it.
  const ah =
    diff === 0
      ? [out('Home -0.25', 'lost', 0.5), out('Away +0.25', 'won', 0.5)]
      : [out('Home -0.25', diff > 0 ? 'won' : 'lost'), out('Away +0.25', diff > 0 ? 'lost' : 'won')];
  return [
    winner,
    {
      key: `totals:${line}`,
      name: `Total ${line}`,
      market_id: 2 + Math.floor(rand() * 40),
      outcomes: [out(`Over ${line}`, over ? 'won' : 'lost'), out(`Under ${line}`, over ? 'lost' : 'won')],
    },
    {
      key: 'asian_handicap:-0.25',
      name: 'Asian Handicap -0.25',
      market_id: 60 + Math.floor(rand() * 40),
      outcomes: ah,
    },
    {
      key: 'odd_even',
      name: 'Total Odd/Even',
      market_id: 120,
      outcomes: [out('Odd', total % 2 === 1 ? 'won' : 'lost'), out('Even', total % 2 === 0 ? 'won' : 'lost')],
    },
    {
      key: `team_totals_home:${Math.floor(home / 2) + 0.5}`,
      name: `Home Team Total ${Math.floor(home / 2) + 0.5}`,
      market_id: 130 + Math.floor(rand() * 20),
      outcomes: [
        out(`Over ${Math.floor(home / 2) + 0.5}`, home > Math.floor(home / 2) + 0.5 ? 'won' : 'lost'),
        out(`Under ${Math.floor(home / 2) + 0.5}`, home > Math.floor(home / 2) + 0.5 ? 'lost' : 'won'),
      ],
    },
  ];
}

/** The fixture's rows, generated one at a time (a million never sit in memory at once). */
export interface SettlementRows {
  rows: Iterable<SettlementsTable>;
  /** (ended_at, event_id) of random entries, filled while `rows` is iterated; shuffle with `shuffleSamples` after. */
  samples: SettlementFixture['samples'];
  /** Shuffles the samples once every row was generated, so any slice is spread over the whole feed. */
  shuffleSamples(): void;
}

/**
 * `entries` settlement rows, oldest first, the same every run. Entries end on whole minutes (as
 * results do) spread over the last six days, so many share an ended_at and the cursor's event_id
 * tie-break is exercised.
 */
export function settlementRows(entries: number, sampleCount: number, now = Date.now()): SettlementRows {
  const rand = mulberry32(20250101);
  const leagues: SimLeague[] = buildWorld(1).leagues.filter((l) => l.teams.length >= 2);
  const wanted = new Set<number>();
  while (wanted.size < Math.min(sampleCount, entries)) wanted.add(Math.floor(rand() * entries));
  const samples: SettlementFixture['samples'] = [];
  const oldest = Math.floor(now / MINUTE_MS) * MINUTE_MS - SPREAD_DAYS * DAY_MS + MINUTE_MS;
  const minutes = (SPREAD_DAYS * DAY_MS) / MINUTE_MS - 1;

  function* rows(): Generator<SettlementsTable> {
    for (let i = 0; i < entries; i++) {
      const league = leagues[Math.floor(rand() * leagues.length)]!;
      const hi = Math.floor(rand() * league.teams.length);
      let ai = Math.floor(rand() * (league.teams.length - 1));
      if (ai >= hi) ai++;
      const home = league.teams[hi]!;
      const away = league.teams[ai]!;
      const endedAt = oldest + Math.floor((i * minutes) / entries) * MINUTE_MS;
      // Simulator-style ids (`sim-<league><day><slot>`), unique through `i`, unrelated to the end order.
      const eventId = `sim-${league.index + 1}${String(i).padStart(7, '0')}`;
      const revision = 1 + Math.floor(rand() * 4);
      const updatedAt = endedAt + 1000 + Math.floor(rand() * 5000) * revision;
      const sh = Math.floor(rand() * 5);
      const sa = Math.floor(rand() * 4);
      const header: SettlementHeader = {
        homeTeam: home.name,
        awayTeam: away.name,
        homeLogoId: home.logoId,
        awayLogoId: away.logoId,
        finalScore: { home: sh, away: sa },
        sport: league.sport,
        league: league.name,
        country: league.country,
        startTime: endedAt - (105 + Math.floor(rand() * 20)) * MINUTE_MS,
        resultRevision: 1,
      };
      const markets = resolvedMarkets(rand, league.sport, sh, sa);
      // Most entries are complete; a few still wait for final player stats.
      const pending = rand() < 0.03 ? 1 + Math.floor(rand() * 40) : 0;
      if (wanted.has(i)) samples.push({ endedAt, eventId });
      yield {
        event_id: eventId,
        ended_at: endedAt,
        updated_at: updatedAt,
        revision,
        resolved_count: markets.length,
        total_count: markets.length + pending,
        pending_count: pending,
        header: JSON.stringify(header),
        markets: JSON.stringify(markets),
      };
    }
  }

  return {
    rows: rows(),
    samples,
    shuffleSamples: () => {
      for (let i = samples.length - 1; i > 0; i--) {
        const j = Math.floor(rand() * (i + 1));
        [samples[i], samples[j]] = [samples[j]!, samples[i]!];
      }
    },
  };
}

/** Creates the store (migrations) in `dataDir`, then inserts `entries` settlement rows in one transaction. */
export async function buildSettlementFixture(
  dataDir: string,
  entries: number,
  sampleCount: number,
  now = Date.now(),
): Promise<SettlementFixture> {
  const started = Date.now();
  const store = await openSqliteStore({ dataDir });
  await store.close();

  const source = settlementRows(entries, sampleCount, now);
  const file = join(dataDir, DEFAULT_SQLITE_FILE);
  const db = new Database(file);
  try {
    // A bulk load of benchmark data: no journal to keep, nothing to fsync; the service sets its own pragmas.
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -262144');
    const insert = db.prepare(
      `INSERT INTO settlements (event_id, ended_at, updated_at, revision, resolved_count, total_count, pending_count, header, markets)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    db.transaction(() => {
      for (const r of source.rows) {
        insert.run(
          r.event_id,
          r.ended_at,
          r.updated_at,
          r.revision,
          r.resolved_count,
          r.total_count,
          r.pending_count,
          r.header,
          r.markets,
        );
      }
    })();
    db.pragma('journal_mode = WAL');
  } finally {
    db.close();
  }
  source.shuffleSamples();
  return {
    entries,
    seconds: (Date.now() - started) / 1000,
    fileBytes: statSync(file).size,
    samples: source.samples,
  };
}
