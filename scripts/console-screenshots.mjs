#!/usr/bin/env node
// Takes the screenshots of the live console in docs/ (docs/portal.md shows them): a service fed a small world, a portal account, Debian's chromium.
// Run after `npm run build`: node scripts/console-screenshots.mjs [--out docs]   (CHROMIUM_PATH overrides /usr/bin/chromium)
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { loadConfig } from '../dist/src/config.js';
import { createService } from '../dist/src/service.js';

const out = process.argv.includes('--out') ? process.argv[process.argv.indexOf('--out') + 1] : 'docs';
const ADMIN = 'screenshots-admin-key';
const MINUTE = 60_000;
const iso = (offset) => new Date(Date.now() + offset).toISOString();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const PL = { slug: 'england-premier-league', name: 'Premier League', country: 'England', tier: 1 };
const LIGA = { slug: 'spain-la-liga', name: 'La Liga', country: 'Spain', tier: 1 };
const NBA = { slug: 'usa-nba', name: 'NBA', country: 'United States', tier: 1 };
const ATP = { slug: 'atp-vienna', name: 'ATP Vienna', country: 'Austria', tier: 2 };

let nextMarket = 1;
function market(key, name, outcomes) {
  const id = nextMarket++;
  return {
    market_id: id,
    key,
    name,
    outcomes: outcomes.map(([code, label, odds, side], i) => ({
      selection_id: id * 10 + i + 1,
      code,
      label,
      odds,
      ...(side ? { team_side: side } : {}),
    })),
  };
}

function soccerBook(p) {
  const list = [
    market('1x2', 'Match Result', [
      ['home', 'Home', p[0], 'home'],
      ['draw', 'Draw', p[1]],
      ['away', 'Away', p[2], 'away'],
    ]),
    market('btts', 'Both Teams to Score', [
      ['yes', 'Yes', 1.8],
      ['no', 'No', 1.95],
    ]),
    market('double_chance', 'Double Chance', [
      ['home_draw', 'Home or Draw', 1.3],
      ['home_away', 'Home or Away', 1.35],
      ['draw_away', 'Draw or Away', 1.7],
    ]),
  ];
  for (const line of [0.5, 1.5, 2.5, 3.5, 4.5]) {
    list.push(
      market(`totals:${line}`, `Total Goals ${line}`, [
        ['over', `Over ${line}`, Math.round((1.05 + line * 0.45) * 100) / 100],
        ['under', `Under ${line}`, Math.round((3.6 - line * 0.55) * 100) / 100],
      ]),
    );
  }
  for (const line of [-1, -0.5, 0, 0.5]) {
    list.push(
      market(`asian_handicap:${line}`, `Asian Handicap ${line}`, [
        ['home', 'Home', Math.round((1.9 - line * 0.4) * 100) / 100, 'home'],
        ['away', 'Away', Math.round((1.9 + line * 0.4) * 100) / 100, 'away'],
      ]),
    );
  }
  return list;
}

function twoWay(key, name, a, b) {
  return market(key, name, [
    ['home', 'Home', a, 'home'],
    ['away', 'Away', b, 'away'],
  ]);
}

/** Scrolls the page so that the element is at the top of the screenshot. */
async function scrollTo(page, selector) {
  await page.evaluate(
    `window.scrollTo(0, document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect().top + window.scrollY - 12)`,
  );
}

async function main() {
  const dataDir = await mkdtemp(join(tmpdir(), 'console-shots-'));
  const service = await createService(
    loadConfig({ DATA_DIR: dataDir, FEED: 'none', ADMIN_KEY: ADMIN, LOG_LEVEL: 'silent', STALE_LOCK_SECONDS: '0' }),
  );
  const base = await service.app.listen({ port: 0, host: '127.0.0.1' });
  const feed = async (messages) => {
    const res = await service.app.inject({
      method: 'POST',
      url: '/admin/v1/feed',
      headers: { 'x-admin-key': ADMIN, 'content-type': 'application/x-ndjson' },
      payload: messages.map((m) => JSON.stringify(m)).join('\n') + '\n',
    });
    const report = JSON.parse(res.body);
    if (res.statusCode !== 200 || report.rejected > 0) throw new Error(`feed refused: ${res.body}`);
  };
  const fixture = (id, league, home, away, start, sport = 'soccer') => ({
    type: 'fixture',
    event_id: id,
    sport,
    league,
    home_team: home,
    away_team: away,
    start_time: iso(start),
    home_logo_id: home.toLowerCase().replace(/\W+/g, '-'),
    away_logo_id: away.toLowerCase().replace(/\W+/g, '-'),
  });

  const games = [
    ['ars-che', PL, 'Arsenal', 'Chelsea', [2.1, 3.4, 3.5], [1, 0, '2H', '61:20']],
    ['liv-mun', PL, 'Liverpool', 'Manchester United', [1.7, 3.9, 4.8], [2, 2, '2H', '74:05']],
    ['rma-sev', LIGA, 'Real Madrid', 'Sevilla', [1.45, 4.5, 6.5], [0, 0, '1H', '22:40']],
  ];
  const books = new Map();
  for (const [id, league, home, away, prices, [h, a, period, clock]] of games) {
    const book = soccerBook(prices);
    books.set(id, book);
    // Published the day before, moving until the kick-off 70 minutes ago (stamped so): the chart's history,
    // and closing prices fixed when the game went live.
    const start = -70 * MINUTE;
    await feed([
      { ...fixture(id, league, home, away, start), ts: iso(start - 24 * 60 * MINUTE) },
      { type: 'markets', event_id: id, markets: book, ts: iso(start - 24 * 60 * MINUTE) },
    ]);
    const main = book[0].outcomes;
    for (let i = 1; i <= 6; i++) {
      await feed([
        {
          type: 'odds',
          event_id: id,
          ts: iso(start - (7 - i) * 3 * 60 * MINUTE),
          changes: main.map((o, j) => ({
            selection_id: o.selection_id,
            odds: Math.round((o.odds + (j === 0 ? -0.03 : 0.03) * i) * 100) / 100,
          })),
        },
      ]);
    }
    await feed([
      { type: 'status', event_id: id, status: 'live', ts: iso(start) },
      {
        type: 'score',
        event_id: id,
        score: { home: h, away: a },
        period,
        clock,
        period_scores: period === '2H' ? [{ period: '1H', home: Math.min(h, 1), away: Math.min(a, 1) }] : [],
        sport_data: { period, corners_home: 5, corners_away: 3 },
        scoreboard: {
          headers: ['1H', '2H', 'T'],
          home: [Math.min(h, 1), h - Math.min(h, 1), h],
          away: [Math.min(a, 1), a - Math.min(a, 1), a],
        },
      },
    ]);
  }
  await feed([
    fixture('lal-bos', NBA, 'Lakers', 'Celtics', -40 * MINUTE, 'basketball'),
    { type: 'markets', event_id: 'lal-bos', markets: [twoWay('moneyline', 'Moneyline', 1.85, 1.95)] },
    { type: 'status', event_id: 'lal-bos', status: 'live' },
    { type: 'score', event_id: 'lal-bos', score: { home: 54, away: 49 }, period: 'Q3', clock: '08:31' },
    fixture('sin-alc', ATP, 'J. Sinner', 'C. Alcaraz', -50 * MINUTE, 'tennis'),
    { type: 'markets', event_id: 'sin-alc', markets: [twoWay('moneyline', 'Match Winner', 2.2, 1.65)] },
    { type: 'status', event_id: 'sin-alc', status: 'live' },
    { type: 'score', event_id: 'sin-alc', score: { home: 1, away: 1 }, period: 'S3', clock: '' },
    { type: 'status', event_id: 'sin-alc', status: 'suspended' },
    fixture('tot-new', PL, 'Tottenham', 'Newcastle', 45 * MINUTE),
    { type: 'markets', event_id: 'tot-new', markets: soccerBook([2.3, 3.4, 3.0]) },
    fixture('bar-val', LIGA, 'Barcelona', 'Valencia', 100 * MINUTE),
    { type: 'markets', event_id: 'bar-val', markets: soccerBook([1.5, 4.3, 6.0]) },
    fixture('eve-ful', PL, 'Everton', 'Fulham', -115 * MINUTE),
    { type: 'markets', event_id: 'eve-ful', markets: soccerBook([2.6, 3.2, 2.8]) },
    { type: 'status', event_id: 'eve-ful', status: 'live' },
    {
      type: 'result',
      event_id: 'eve-ful',
      status: 'ended',
      score: { home: 2, away: 1 },
      period_scores: [
        { period: '1H', home: 1, away: 1 },
        { period: '2H', home: 1, away: 0 },
      ],
    },
  ]);
  // One more ended game, whose player prop waits for final statistics: settled in part.
  await feed([
    fixture('vil-for', PL, 'Aston Villa', 'Nottingham Forest', -110 * MINUTE),
    {
      type: 'markets',
      event_id: 'vil-for',
      markets: [
        ...soccerBook([2.0, 3.5, 3.8]).slice(0, 4),
        market('player_goals_p9:0.5', 'O. Watkins to score', [
          ['over', 'Over 0.5', 2.4],
          ['under', 'Under 0.5', 1.55],
        ]),
      ],
    },
    { type: 'status', event_id: 'vil-for', status: 'live' },
    { type: 'result', event_id: 'vil-for', status: 'ended', score: { home: 3, away: 1 } },
  ]);
  await service.settlement.idle();

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const page = await (await browser.newContext({ viewport: { width: 1000, height: 760 } })).newPage();
    await page.goto(`${base}/portal`);
    await page.fill('#sign-up-email', 'screenshots@example.com');
    await page.fill('#sign-up-password', 'a long screenshots password');
    await page.click('text=Create account');
    await page.waitForURL(/\/portal\/keys/);
    await page.fill('#key-name', 'console');
    await page.click('button:has-text("Create key")');
    const secret = await page.locator('#new-secret').inputValue();
    const keyId = await page.locator('#new-secret').getAttribute('data-key-id');
    await service.keyAdmin.setPlan(keyId, 'developer');

    await page.goto(`${base}/portal/console?key=${keyId}`);
    await page.fill('#cs-secret', secret);
    await page.click('#cs-connect');
    await page.waitForSelector('.ev-row[data-event-id="ars-che"] .price');
    // A couple of moves, so the board shows its arrows and a flash.
    const main = books.get('ars-che')[0].outcomes;
    const other = books.get('liv-mun')[0].outcomes;
    await feed([
      {
        type: 'odds',
        event_id: 'ars-che',
        changes: [
          { selection_id: main[0].selection_id, odds: 1.95 },
          { selection_id: main[2].selection_id, odds: 4.1 },
        ],
      },
      { type: 'odds', event_id: 'liv-mun', changes: [{ selection_id: other[1].selection_id, is_locked: true }] },
    ]);
    await sleep(300);
    await scrollTo(page, '.console-filters');
    await page.screenshot({ path: join(out, 'console-board.png') });

    await page.setViewportSize({ width: 390, height: 760 });
    await sleep(300);
    await scrollTo(page, '#board-live-title');
    await page.screenshot({ path: join(out, 'console-board-phone.png') });
    await page.setViewportSize({ width: 1000, height: 760 });

    await page.goto(`${base}/portal/console/events/ars-che?key=${keyId}`);
    await page.waitForSelector('#ev-chart-card figure[data-chart-ready]');
    await page.click('.mk-group[data-family="totals"] > summary');
    await feed([{ type: 'odds', event_id: 'ars-che', changes: [{ selection_id: main[0].selection_id, odds: 1.9 }] }]);
    await sleep(900);
    await scrollTo(page, '#ev-header');
    await page.screenshot({ path: join(out, 'console-event.png') });
    await scrollTo(page, '#ev-chart-card');
    await page.screenshot({ path: join(out, 'console-event-markets.png') });

    await page.goto(`${base}/portal/console/settlements?key=${keyId}`);
    await page.waitForSelector('.st-entry[data-event-id="eve-ful"]');
    await page.click('.st-entry[data-event-id="eve-ful"] .st-markets > summary');
    await sleep(200);
    await scrollTo(page, '.stats');
    await page.screenshot({ path: join(out, 'console-settlements.png') });
    console.log(`screenshots written to ${out}/console-*.png`);
  } finally {
    await browser.close();
    await service.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
