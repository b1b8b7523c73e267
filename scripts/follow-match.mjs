#!/usr/bin/env node
// Follows one match of a sport from before kick-off to its result over the HTTP API and prints what a client sees (issue 17's payload excerpts).
// Usage: node scripts/follow-match.mjs --sport tennis [--base http://127.0.0.1:3000] [--key $KEY] [--every 2] [--within 6h] [--event ID] [--max-minutes 20]
import { parseArgs } from 'node:util';

const { values: o } = parseArgs({
  options: {
    sport: { type: 'string', default: 'tennis' },
    base: { type: 'string', default: 'http://127.0.0.1:3000' },
    key: { type: 'string', default: process.env.KEY ?? '' },
    every: { type: 'string', default: '2' },
    within: { type: 'string', default: '6h' },
    event: { type: 'string' },
    'max-minutes': { type: 'string', default: '20' },
  },
});
const headers = { 'x-api-key': o.key };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const get = async (path) => {
  for (;;) {
    const res = await fetch(`${o.base}${path}`, { headers });
    // The plan's per-second limit: wait as told and ask again.
    if (res.status === 429) {
      await sleep(1000 * Number(res.headers.get('retry-after') ?? 1));
      continue;
    }
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json();
  }
};

/** The open line of a family nearest an even book (its two prices closest), as "line a/b". */
function mainLine(markets, family) {
  let best = null;
  for (const m of markets) {
    if (!m.key.startsWith(`${family}:`)) continue;
    const [a, b] = m.outcomes;
    if (a === undefined || b === undefined || a.is_locked || b.is_locked) continue;
    const gap = Math.abs(a.odds - b.odds);
    if (best === null || gap < best.gap) best = { gap, text: `${m.key.slice(family.length + 1)} ${a.odds}/${b.odds}` };
  }
  return best?.text ?? '-';
}

const winner = (markets) => {
  const m = markets.find((x) => x.key === 'moneyline' || x.key === '1x2' || x.key === 'match_winner');
  if (m === undefined) return '-';
  return m.outcomes.map((x) => `${x.is_locked ? 'L' : ''}${x.odds}`).join('/');
};

async function pick() {
  if (o.event !== undefined) return get(`/v1/events/${o.event}`);
  const { events } = await get(`/v1/events?sport=${o.sport}&status=prematch&starts_within=${o.within}&limit=50`);
  if (events.length === 0) throw new Error(`no ${o.sport} event starts within ${o.within}`);
  // The top tier's first game: what a client would follow first.
  const tier = (e) => e.league?.tier ?? 9;
  return [...events].sort((a, b) => tier(a) - tier(b) || Date.parse(a.start_time) - Date.parse(b.start_time))[0];
}
const event = await pick();
console.log(
  `${event.id} ${event.home_team} v ${event.away_team} (${event.league?.name ?? ''}) starts ${event.start_time}`,
);
const deadline = Date.now() + Number(o['max-minutes']) * 60_000;
let last = '';
while (Date.now() < deadline) {
  const d = await get(`/v1/events/${event.id}`);
  const { markets } = await get(`/v1/events/${event.id}/odds`);
  const open = markets.filter((m) => m.outcomes.some((x) => !x.is_locked)).length;
  // The score, and the current period's (a set's games, an inning's runs) where it has periods.
  const now = d.period_scores?.at(-1);
  const score =
    d.score === null || d.score === undefined
      ? ''
      : `${d.score.home}-${d.score.away}${now === undefined ? '' : ` (${now.home}-${now.away})`}`;
  const line = [
    d.status.padEnd(8),
    `${d.period ?? ''} ${d.clock ?? ''}`.trim().padEnd(10),
    score.padEnd(13),
    `win ${winner(markets)}`.padEnd(24),
    `total ${mainLine(markets, 'totals')}`.padEnd(22),
    `hcp ${mainLine(markets, 'asian_handicap')}`.padEnd(22),
    `open ${open}/${markets.length}`,
  ].join(' ');
  if (line !== last) console.log(`${d.updated_at.slice(11, 19)} ${line}`);
  last = line;
  if (['ended', 'retired', 'abandoned', 'cancelled', 'walkover'].includes(d.status)) {
    console.log(JSON.stringify(await get(`/v1/events/${event.id}/result`)));
    break;
  }
  await sleep(Number(o.every) * 1000);
}
