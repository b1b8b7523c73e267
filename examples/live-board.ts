// Example: a live board of one sport in the terminal, kept current by the SDK's stream (snapshot, then changes).
// Run: SPORTS_DATA_API_KEY=… npm run example:board -- --sport soccer   (SPORTS_DATA_URL, default http://127.0.0.1:3000)
import { parseArgs } from 'node:util';
import { SportsDataClient, type StreamEvent, type StreamEventDataMap, type StreamQuery } from '../sdk/src/index.js';

interface Row {
  league: string;
  home: string;
  away: string;
  status: string;
  start: string;
  score: string;
  clock: string;
  locked: boolean;
  /** The main market (1x2 or moneyline): its id, and each outcome by code. */
  mainId: number | null;
  prices: Map<string, { selectionId: number; odds: unknown; locked: boolean }>;
}

const { values } = parseArgs({
  options: {
    sport: { type: 'string', default: 'soccer' },
    rows: { type: 'string', default: '25' },
    odds: { type: 'string', default: 'decimal' },
    /** Stop after this many redraws (0: run until Ctrl-C). */
    frames: { type: 'string', default: '0' },
  },
});
const oddsFormat = values.odds === 'american' || values.odds === 'fractional' ? values.odds : 'decimal';
const apiKey = process.env.SPORTS_DATA_API_KEY;
if (apiKey === undefined || apiKey === '') {
  console.error(
    'set SPORTS_DATA_API_KEY (npm start prints the demo key), and SPORTS_DATA_URL if not http://127.0.0.1:3000',
  );
  process.exit(2);
}

const client = new SportsDataClient({
  baseUrl: process.env.SPORTS_DATA_URL ?? 'http://127.0.0.1:3000',
  apiKey,
  oddsFormat,
});
const board = new Map<string, Row>();
const MAIN = /^(1x2|moneyline)$/;

function rowOf(id: string): Row {
  let row = board.get(id);
  if (row === undefined) {
    row = {
      league: '',
      home: '?',
      away: '?',
      status: '',
      start: '',
      score: '',
      clock: '',
      locked: false,
      mainId: null,
      prices: new Map(),
    };
    board.set(id, row);
  }
  return row;
}

function onMarkets(d: StreamEventDataMap['markets']): void {
  const row = rowOf(d.event_id);
  if (row.mainId !== null && d.withdrawn.includes(row.mainId)) {
    row.mainId = null;
    row.prices.clear();
  }
  const main = d.added.find((m) => MAIN.test(m.key));
  if (main === undefined) return;
  row.mainId = main.market_id;
  row.prices = new Map(
    main.outcomes.map((o) => [o.code, { selectionId: o.selection_id, odds: o.odds, locked: o.is_locked }]),
  );
}

function apply(e: StreamEvent): void {
  switch (e.event) {
    case 'snapshot_required':
      // The service could not resume exactly: a snapshot follows, rebuild from it.
      board.clear();
      return;
    case 'status': {
      const row = rowOf(e.data.event_id);
      Object.assign(row, {
        league: e.data.league.name,
        home: e.data.home_team,
        away: e.data.away_team,
        status: e.data.status,
        start: e.data.start_time.slice(5, 16).replace('T', ' '),
        locked: e.data.is_locked,
      });
      if (e.data.status === 'ended' || e.data.status === 'cancelled') board.delete(e.data.event_id);
      return;
    }
    case 'score': {
      const row = rowOf(e.data.event_id);
      row.score = `${e.data.score.home}-${e.data.score.away}`;
      row.clock = [e.data.period, e.data.clock].filter((s) => s !== null && s !== '').join(' ');
      return;
    }
    case 'markets':
      return onMarkets(e.data);
    case 'odds': {
      const row = board.get(e.data.event_id);
      if (row === undefined || row.mainId === null) return;
      for (const c of e.data.changes) {
        if (c.market_id !== row.mainId) continue;
        for (const p of row.prices.values()) {
          if (p.selectionId === c.selection_id) Object.assign(p, { odds: c.odds, locked: c.is_locked });
        }
      }
      return;
    }
    case 'result':
      board.delete(e.data.event_id);
      return;
    default:
      return;
  }
}

const pad = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s.padEnd(n));
function price(row: Row, code: string): string {
  const p = row.prices.get(code);
  if (p === undefined || p.odds === null) return pad('-', 8);
  return pad(`${String(p.odds)}${p.locked || row.locked ? '🔒' : ''}`, 8);
}

function draw(): void {
  const rows = [...board.values()]
    .filter((r) => r.home !== '?')
    .sort((a, b) => Number(b.status === 'live') - Number(a.status === 'live') || a.start.localeCompare(b.start))
    .slice(0, Number(values.rows));
  const live = [...board.values()].filter((r) => r.status === 'live').length;
  const lines = [
    `${values.sport} — ${board.size} events, ${live} live — ${new Date().toISOString().slice(11, 19)} UTC (odds ${oddsFormat})`,
    `${pad('league', 18)} ${pad('match', 40)} ${pad('score', 6)} ${pad('clock', 11)} ${pad('1', 8)} ${pad('X', 8)} ${pad('2', 8)}`,
    ...rows.map(
      (r) =>
        `${pad(r.league, 18)} ${pad(`${r.home} v ${r.away}`, 40)} ${pad(r.status === 'live' ? r.score : '', 6)} ${pad(r.status === 'live' ? r.clock : r.start, 11)} ${price(r, 'home')} ${price(r, 'draw')} ${price(r, 'away')}`,
    ),
  ];
  // On a terminal, redraw in place; piped, print frames one after another.
  process.stdout.write((process.stdout.isTTY ? '\x1b[2J\x1b[H' : '\n') + lines.join('\n') + '\n');
}

const stream = client.stream({
  // The service checks the key (one of GET /v1/sports, or all): a typo is its 400, told below.
  query: {
    sport: values.sport as StreamQuery['sport'],
    types: 'status,score,markets,odds,result',
    markets: '1x2,moneyline',
  },
  snapshot: true,
  onReconnect: (i) => console.error(`stream dropped (${String(i.error)}); reconnecting in ${i.delayMs} ms`),
});
process.on('SIGINT', () => stream.close());

let frames = 0;
const maxFrames = Number(values.frames);
const timer = setInterval(() => {
  draw();
  if (maxFrames > 0 && ++frames >= maxFrames) stream.close();
}, 1000);
try {
  for await (const e of stream) apply(e);
} catch (err) {
  // A refusal the SDK does not retry: a bad key or filter, an exhausted quota.
  console.error(err instanceof Error ? `${err.name}: ${err.message}` : err);
  process.exitCode = 1;
} finally {
  clearInterval(timer);
}
