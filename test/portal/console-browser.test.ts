// The live console in a real browser (Debian chromium through playwright-core), driven through the admin feed: prices and locks in place, a 1,000-market event under load, the chart, results and settlement, resume, accessibility.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { loadConfig } from '../../src/config.js';
import { createService, type Service } from '../../src/service.js';
import { fixture, markets, MARKET, odds, SEL, score, status } from '../helpers/service.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = join('test-artifacts', 'console');
const ADMIN = 'console-browser-admin-key';
const skip = existsSync(CHROMIUM)
  ? false
  : `no chromium at ${CHROMIUM}: install it (apt-get install -y chromium) or set CHROMIUM_PATH to run the browser test`;

const MINUTE = 60_000;
/** How long a change may take to show before it counts as not shown at all (a deadline, not a speed target). */
const SHOWN = 10_000;
/** A main-thread task this long means the page froze, whatever the machine. */
const FROZEN = 2_000;
/**
 * The console's own bounds (a price shown within a second of its feed message, no task over 100 ms
 * while a 1,000-market event ticks) are asserted when the machine has a core free for the page;
 * beside other suites (CI runs three files at a time on two cores) they are reported, and only the
 * deadlines above hold.
 */
const quiet = (): boolean => (loadavg()[0] ?? 0) < availableParallelism();
const iso = (offsetMs: number): string => new Date(Date.now() + offsetMs).toISOString();
const NBA = { slug: 'usa-nba', name: 'NBA', country: 'United States', tier: 1 };

/** A basketball game's main market: a moneyline (selections 31/32). */
function moneyline(eventId: string): Record<string, unknown> {
  return {
    type: 'markets',
    event_id: eventId,
    markets: [
      {
        market_id: 3,
        key: 'moneyline',
        name: 'Moneyline',
        outcomes: [
          { selection_id: 31, code: 'home', label: 'Home', odds: 1.8, team_side: 'home' },
          { selection_id: 32, code: 'away', label: 'Away', odds: 2.05, team_side: 'away' },
        ],
      },
    ],
  };
}

/** An event of 1,000 markets: the 1x2, 100 totals, 100 Asian handicaps, 799 player props. Selection ids are market id × 10 + n. */
function bigBook(eventId: string): Record<string, unknown> {
  const list: object[] = [
    {
      market_id: 1,
      key: '1x2',
      name: 'Match Result',
      outcomes: [
        { selection_id: 11, code: 'home', label: 'Home', odds: 2.5, team_side: 'home' },
        { selection_id: 12, code: 'draw', label: 'Draw', odds: 3.2 },
        { selection_id: 13, code: 'away', label: 'Away', odds: 2.9, team_side: 'away' },
      ],
    },
  ];
  const two = (id: number, key: string, name: string, a: [string, string], b: [string, string]) => ({
    market_id: id,
    key,
    name,
    outcomes: [
      { selection_id: id * 10 + 1, code: a[0], label: a[1], odds: 1.9 },
      { selection_id: id * 10 + 2, code: b[0], label: b[1], odds: 1.9 },
    ],
  });
  for (let i = 0; i < 100; i++) {
    const line = 0.25 + i * 0.25;
    list.push(two(100 + i, `totals:${line}`, `Total ${line}`, ['over', `Over ${line}`], ['under', `Under ${line}`]));
  }
  for (let i = 0; i < 100; i++) {
    const line = -12.5 + i * 0.25;
    list.push(two(200 + i, `asian_handicap:${line}`, `Handicap ${line}`, ['home', 'Home'], ['away', 'Away']));
  }
  for (let i = 0; i < 799; i++) {
    const stat = i % 2 === 0 ? 'goals' : 'shots';
    list.push(
      two(300 + i, `player_${stat}_p${i}:0.5`, `Player ${i} ${stat} 0.5`, ['over', 'Over 0.5'], ['under', 'Under 0.5']),
    );
  }
  return { type: 'markets', event_id: eventId, markets: list };
}

/** Every selection id of the big book. */
function bigSelections(): number[] {
  const out = [11, 12, 13];
  for (let m = 100; m < 1099; m++) out.push(m * 10 + 1, m * 10 + 2);
  return out;
}

/** A soccer game with a main market, a total and a player prop (settled once final stats arrive). */
function settleable(eventId: string, teams: [string, string]): Record<string, unknown>[] {
  return [
    fixture(eventId, { start_time: iso(-100 * MINUTE), home_team: teams[0], away_team: teams[1] }),
    markets(eventId),
    {
      type: 'markets',
      event_id: eventId,
      markets: [
        {
          market_id: 9,
          key: 'player_goals_p9:0.5',
          name: 'Nine to score',
          outcomes: [
            { selection_id: 91, code: 'over', label: 'Over 0.5', odds: 2.5 },
            { selection_id: 92, code: 'under', label: 'Under 0.5', odds: 1.5 },
          ],
        },
      ],
    },
    status(eventId, 'live'),
    score(eventId, 1, 1, { period: '2H', clock: '88:00' }),
  ];
}

describe('live console in a browser', { skip }, () => {
  let dataDir: string;
  let service: Service;
  let base: string;
  let browser: Browser;
  let page: Page;
  let keyId = '';
  let secret = '';
  const problems: string[] = [];
  /** The request headers of every stream the page opened (EventSource's reconnections included). */
  const streamRequests: Array<Promise<Record<string, string>>> = [];

  before(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    dataDir = await mkdtemp(join(tmpdir(), 'console-browser-'));
    const config = loadConfig({
      DATA_DIR: dataDir,
      FEED: 'none',
      ADMIN_KEY: ADMIN,
      LOG_LEVEL: 'silent',
      // Live events are not locked for a quiet feed while the test looks elsewhere.
      STALE_LOCK_SECONDS: '0',
    });
    service = await createService(config);
    base = await service.app.listen({ port: 0, host: '127.0.0.1' });
    await feed([
      fixture('live-1', { start_time: iso(-30 * MINUTE), home_team: 'Arsenal', away_team: 'Chelsea' }),
      markets('live-1'),
      status('live-1', 'live'),
      score('live-1', 1, 0, { period: '1H', clock: '30:00' }),
      fixture('live-2', {
        sport: 'basketball',
        league: NBA,
        start_time: iso(-20 * MINUTE),
        home_team: 'Lakers',
        away_team: 'Celtics',
      }),
      moneyline('live-2'),
      status('live-2', 'live'),
      score('live-2', 30, 28, { period: 'Q2', clock: '05:12' }),
      fixture('soon-1', { start_time: iso(60 * MINUTE), home_team: 'Everton', away_team: 'Fulham' }),
      markets('soon-1'),
      fixture('later-1', { start_time: iso(30 * 60 * MINUTE), home_team: 'Leeds', away_team: 'Burnley' }),
    ]);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    page = await context.newPage();
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/v1/stream') streamRequests.push(r.allHeaders());
    });
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));

    ({ keyId, secret } = await signUp(service, base));
  });

  /** Signs up on the portal at `at` and creates a key, on the developer plan. */
  async function signUp(on: Service, at: string): Promise<{ keyId: string; secret: string }> {
    await page.goto(`${at}/portal`);
    await page.fill('#sign-up-email', 'console@example.com');
    await page.fill('#sign-up-password', 'a long console password');
    await page.click('text=Create account');
    await page.waitForURL(/\/portal\/keys/);
    await page.fill('#key-name', 'console key');
    await page.click('button:has-text("Create key")');
    const made = {
      secret: await page.locator('#new-secret').inputValue(),
      keyId: (await page.locator('#new-secret').getAttribute('data-key-id')) ?? '',
    };
    // A free key holds one stream; the test opens pages in a row, as a developer would with a larger plan.
    await on.keyAdmin.setPlan(made.keyId, 'developer');
    return made;
  }

  after(async () => {
    await browser?.close();
    await service?.close();
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  });

  async function feed(messages: object[], to: Service = service): Promise<void> {
    const fed = await to.app.inject({
      method: 'POST',
      url: '/admin/v1/feed',
      headers: { 'x-admin-key': ADMIN, 'content-type': 'application/x-ndjson' },
      payload: messages.map((m) => JSON.stringify(m)).join('\n') + '\n',
    });
    assert.equal(fed.statusCode, 200, fed.body);
    assert.equal((JSON.parse(fed.body) as { rejected: number }).rejected, 0, fed.body);
  }

  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });

  /** Opens a console page with the key; the secret is typed once, then the tab keeps it. */
  async function open(path: string): Promise<void> {
    await page.goto(`${base}${path}${path.includes('?') ? '&' : '?'}key=${keyId}`);
    if ((await page.inputValue('#cs-secret')) === '') {
      await page.fill('#cs-secret', secret);
      await page.click('#cs-connect');
    }
    await page.waitForSelector('#cs-status[data-state="open"]');
  }

  /** axe-core's serious and critical violations on the page as it is now. */
  async function axeViolations(): Promise<string[]> {
    const source = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    // Evaluated through the DevTools protocol: the page's CSP (script-src 'self') does not apply to it.
    await page.evaluate(source);
    const found = await page.evaluate<Array<{ id: string; impact: string; help: string; nodes: number }>>(
      `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length })))`,
    );
    return found
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}, ${v.nodes} nodes): ${v.help}`);
  }

  async function fitsPhone(name: string): Promise<void> {
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(`${name}-phone`);
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    assert.ok(overflow <= 0, `${name} fits a phone's width (overflows by ${overflow}px)`);
    await page.setViewportSize({ width: 1200, height: 900 });
  }

  const priceCell = (eventId: string, selectionId: number) =>
    `.ev-row[data-event-id="${eventId}"] .price[data-selection-id="${selectionId}"]`;

  test(
    'the board: live events by sport and league, prices moving in place, locks, filters, formats',
    { timeout: 90_000 },
    async (t) => {
      await open('/portal/console');
      await page.waitForSelector(priceCell('live-1', SEL.home));
      assert.equal(await page.getAttribute(priceCell('live-1', SEL.home), 'data-odds'), '2.5');
      assert.match(
        (await page.textContent('.ev-row[data-event-id="live-1"]')) ?? '',
        /Arsenal.*Chelsea.*1 – 0.*1H 30:00/,
      );
      assert.equal(await page.locator('#board-live .sport-group').count(), 2, 'two sports live');
      assert.match(
        (await page.textContent('#board-live .sport-group[data-sport="soccer"] .league-name')) ?? '',
        /Premier League/,
      );
      assert.equal(await page.locator('#board-live .ev-row[data-event-id="live-2"] .price').count(), 2, 'a moneyline');
      assert.equal(await page.locator('#board-soon .ev-row[data-event-id="soon-1"]').count(), 1, 'the next kick-off');
      assert.equal(await page.locator('.ev-row[data-event-id="later-1"]').count(), 0, 'not the one tomorrow');
      await page.waitForSelector('.ev-row[data-event-id="live-1"] img.logo');
      await page.evaluate('window.__sameDocument = true');
      await shot('01-board');

      // A new price shows in place (no reload, no poll), with its direction. How fast is a figure of the
      // machine's load, not a pass mark (speed targets live in bench/): it is reported, not asserted.
      const wasQuiet = quiet();
      const started = Date.now();
      await feed([odds('live-1', [{ selection_id: SEL.home, odds: 2.4 }])]);
      await page.waitForSelector(`${priceCell('live-1', SEL.home)}[data-odds="2.4"]`, { timeout: SHOWN });
      const shownMs = Date.now() - started;
      t.diagnostic(`a price shown ${shownMs} ms after its feed message (${wasQuiet ? 'quiet' : 'busy'} machine)`);
      if (wasQuiet) assert.ok(shownMs < 1_000, `shown ${shownMs} ms after the feed message`);
      assert.match((await page.textContent(priceCell('live-1', SEL.home))) ?? '', /^2\.40▼ down$/);
      assert.match((await page.getAttribute(priceCell('live-1', SEL.home), 'class')) ?? '', /flash-down-/);
      await feed([odds('live-1', [{ selection_id: SEL.home, odds: 2.6 }])]);
      await page.waitForSelector(`${priceCell('live-1', SEL.home)}[data-odds="2.6"]`, { timeout: SHOWN });
      assert.match((await page.textContent(priceCell('live-1', SEL.home))) ?? '', /^2\.60▲ up$/);

      // A selection's lock, then the whole event's.
      await feed([odds('live-1', [{ selection_id: SEL.away, is_locked: true }])]);
      await page.waitForSelector(`${priceCell('live-1', SEL.away)}[data-locked="true"]`, { timeout: SHOWN });
      assert.match((await page.textContent(priceCell('live-1', SEL.away))) ?? '', /^2\.90 locked$/);
      await feed([status('live-1', 'suspended')]);
      await page
        .locator('.ev-row[data-event-id="live-1"] .lock-badge', { hasText: 'Locked: suspended' })
        .waitFor({ timeout: SHOWN });
      assert.equal(await page.getAttribute(priceCell('live-1', SEL.home), 'data-locked'), 'true');
      await shot('02-board-locked');
      await feed([status('live-1', 'live'), odds('live-1', [{ selection_id: SEL.away, is_locked: false }])]);
      await page.waitForSelector(`${priceCell('live-1', SEL.away)}[data-locked="false"]`);
      assert.equal(await page.isVisible('.ev-row[data-event-id="live-1"] .lock-badge'), false);

      // Score and clock move too.
      await feed([score('live-1', 2, 0, { period: '2H', clock: '50:00' })]);
      await page.locator('.ev-row[data-event-id="live-1"] .score', { hasText: '2 – 0' }).waitFor({ timeout: SHOWN });
      assert.equal(await page.textContent('.ev-row[data-event-id="live-1"] .clock'), '2H 50:00');

      // Filters by sport and league.
      await page.selectOption('#board-sport', 'basketball');
      await page.waitForSelector('.ev-row[data-event-id="live-1"]', { state: 'detached' });
      assert.equal(await page.locator('#board-live .ev-row').count(), 1);
      assert.match(page.url(), /sport=basketball/);
      await page.selectOption('#board-sport', '');
      await page.selectOption('#board-league', 'england-premier-league');
      await page.waitForSelector('.ev-row[data-event-id="live-2"]', { state: 'detached' });
      assert.equal(await page.locator('#board-live .ev-row').count(), 1);
      await page.selectOption('#board-league', '');
      await page.waitForSelector('.ev-row[data-event-id="live-2"]');

      // Every odds format: the board reconnects in the chosen one.
      await page.selectOption('#cs-format', 'american');
      await page.waitForSelector(`${priceCell('live-1', SEL.home)}[data-odds="160"]`);
      assert.match((await page.textContent(priceCell('live-1', SEL.home))) ?? '', /^\+160/);
      await page.selectOption('#cs-format', 'fractional');
      await page.waitForSelector(`${priceCell('live-1', SEL.home)}[data-odds="8/5"]`);
      await page.selectOption('#cs-format', 'decimal');
      await page.waitForSelector(`${priceCell('live-1', SEL.home)}[data-odds="2.6"]`);
      assert.equal(await page.evaluate('window.__sameDocument'), true, 'no reload');

      assert.deepEqual(await axeViolations(), [], 'no serious accessibility violation on the board');
      await fitsPhone('01-board');
      assert.deepEqual(problems, [], 'no console error');
    },
  );

  test(
    'a dropped connection resumes after the last event, and the change made meanwhile shows',
    { timeout: 60_000 },
    async () => {
      await open('/portal/console');
      await page.waitForSelector(priceCell('live-1', SEL.draw));
      const before = streamRequests.length;
      service.app.server.closeAllConnections();
      await feed([odds('live-1', [{ selection_id: SEL.draw, odds: 3.55 }])]);
      await page.waitForSelector(`${priceCell('live-1', SEL.draw)}[data-odds="3.55"]`, { timeout: 10_000 });
      assert.equal(streamRequests.length, before + 1, 'one reconnection');
      assert.match((await streamRequests.at(-1))?.['last-event-id'] ?? '', /^\d+-\d+$/, 'resumed with Last-Event-ID');
      await page.waitForSelector('#cs-status[data-state="open"]');
      // The dropped connection shows as a network error in the browser: that one is expected.
      problems.splice(0);
    },
  );

  test('keyboard: from the filters to an event and into its markets', { timeout: 30_000 }, async () => {
    await open('/portal/console');
    await page.waitForSelector(priceCell('live-1', SEL.home));
    await page.focus('#board-league');
    await page.keyboard.press('Tab');
    assert.equal(
      await page.evaluate('document.activeElement.closest(".ev-row")?.getAttribute("data-event-id")'),
      'live-2',
    );
    await page.focus('.ev-row[data-event-id="live-1"] a.teams');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/portal\/console\/events\/live-1\?/);
    await page.waitForSelector('#cs-status[data-state="open"]');
    await page.waitForSelector('.mk-group[data-family="totals"] > summary');
    await page.focus('.mk-group[data-family="totals"] > summary');
    await page.keyboard.press('Enter');
    await page.waitForSelector(`.mk[data-market-id="${MARKET.totals}"] .price[data-selection-id="${SEL.over}"]`);
    assert.deepEqual(problems, [], 'no console error');
  });

  test(
    'an event of 1,000 markets renders, and 100 changes every 300 ms never block its main thread (100 ms on a quiet machine, a freeze on a busy one)',
    { timeout: 120_000 },
    async (t) => {
      await feed([
        // Priced before its start (stamped so), so that going live fixes closing prices.
        {
          ...fixture('big-1', { start_time: iso(-5 * MINUTE), home_team: 'Big Home', away_team: 'Big Away' }),
          ts: iso(-60 * MINUTE),
        },
        { ...bigBook('big-1'), ts: iso(-60 * MINUTE) },
        { ...odds('big-1', [{ selection_id: SEL.home, odds: 2.45 }]), ts: iso(-40 * MINUTE) },
        { ...odds('big-1', [{ selection_id: SEL.home, odds: 2.4 }]), ts: iso(-20 * MINUTE) },
        { ...odds('big-1', [{ selection_id: SEL.draw, odds: 3.3 }]), ts: iso(-10 * MINUTE) },
        { ...status('big-1', 'live'), ts: iso(-5 * MINUTE) },
        score('big-1', 1, 0, {
          period: '1H',
          clock: '05:00',
          period_scores: [{ period: '1H', home: 1, away: 0 }],
          sport_data: { period: '1H' },
          scoreboard: { headers: ['1H', '2H', 'T'], home: [1, 0, 1], away: [0, 0, 0] },
        }),
        odds('big-1', [{ selection_id: SEL.away, odds: 3.1 }]),
      ]);
      // Let the history's write-behind flush, then count what the chart must show.
      await new Promise((r) => setTimeout(r, 700));
      const history = await service.app.inject({
        method: 'GET',
        url: `/v1/events/big-1/odds/history?market_id=1&limit=1000`,
        headers: { 'x-api-key': secret },
      });
      const historyCount = (JSON.parse(history.body) as { history: unknown[] }).history.length;
      assert.ok(historyCount >= 6, `history of the 1x2: ${historyCount}`);

      await open('/portal/console/events/big-1');
      await page.locator('#ev-markets-count', { hasText: '(1000)' }).waitFor({ timeout: 20_000 });
      await page.waitForSelector('.mk[data-market-id="1"] .price[data-selection-id="11"][data-odds="2.4"]');
      assert.equal(await page.textContent('#ev-title'), 'Big Home v Big Away');
      assert.equal(await page.textContent('#ev-score'), '1 – 0');
      assert.equal(await page.textContent('#ev-clock'), '1H 05:00');
      assert.equal(await page.textContent('#ev-status'), 'live');
      assert.equal(await page.locator('#ev-scoreboard-table tbody tr').count(), 2);
      assert.match((await page.textContent('#ev-sport-data')) ?? '', /period1H/);
      assert.equal(
        await page.locator('.mk-group').count(),
        5,
        '1x2, totals, Asian handicap, two kinds of player props',
      );
      assert.ok((await page.locator('.mk').count()) < 10, 'collapsed groups draw nothing');
      await page.waitForSelector('#ev-chart-card figure[data-chart-ready]');
      await page.waitForSelector(`#ev-chart-card figure[data-history-points="${historyCount}"]`);
      await page.click('.mk-group[data-family="totals"] > summary');
      await page.waitForSelector('.mk-group[data-family="totals"] .mk');
      assert.equal(await page.locator('.mk-group[data-family="totals"] .mk').count(), 50, 'a page of a big group');
      await page.click('.mk-group[data-family="totals"] .more');
      await page.locator('.mk-group[data-family="totals"] .mk').nth(99).waitFor({ state: 'attached' });
      await shot('03-event-big');

      assert.equal(
        await page.evaluate<boolean>(`PerformanceObserver.supportedEntryTypes.includes('longtask')`),
        true,
        'the browser reports long tasks',
      );
      await page.evaluate(
        `window.__longTasks = []; new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(Math.round(e.duration)); }).observe({ type: 'longtask' });`,
      );
      const selections = bigSelections();
      let seed = 7;
      const random = () => {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        return seed / 2147483648;
      };
      let lastHome = 0;
      for (let tick = 0; tick < 20; tick++) {
        const changes = new Map<number, number>();
        // The 1x2's home price moves every tick (the chart's live points); the rest at random.
        lastHome = Math.round((2 + tick / 50) * 100) / 100;
        changes.set(SEL.home, lastHome);
        while (changes.size < 100) {
          const sel = selections[Math.floor(random() * selections.length)] ?? 11;
          // The 1x2's other two stay still: the chart then counts exactly one live point a tick.
          if (sel !== SEL.home && sel !== SEL.draw && sel !== SEL.away)
            changes.set(sel, Math.round((1.2 + random() * 5) * 100) / 100);
        }
        const t = Date.now();
        await feed([
          odds(
            'big-1',
            [...changes].map(([selection_id, o]) => ({ selection_id, odds: o })),
          ),
        ]);
        await new Promise((r) => setTimeout(r, Math.max(0, 300 - (Date.now() - t))));
      }
      await page.waitForSelector(`.mk[data-market-id="1"] .price[data-selection-id="11"][data-odds="${lastHome}"]`);
      await new Promise((r) => setTimeout(r, 700));
      const longTasks = await page.evaluate<number[]>('window.__longTasks');
      // A frozen page is a defect whatever the machine; how long each task took depends on its load
      // (CI runs this beside other suites), so the bound is a frozen page's, and the figures are reported.
      assert.ok(Math.max(0, ...longTasks) <= FROZEN, `long tasks while prices moved: ${JSON.stringify(longTasks)}`);
      if (quiet()) {
        assert.ok(Math.max(0, ...longTasks) <= 100, `long tasks on a quiet machine: ${JSON.stringify(longTasks)}`);
      }
      t.diagnostic(`long tasks (over 50 ms) while 20 ticks of 100 changes arrived: ${JSON.stringify(longTasks)}`);

      // The chart: the history's points, then the live ones.
      await page.waitForSelector('#ev-chart-card figure[data-live-points="20"]');
      const points = await page.evaluate<number[]>(
        `Chart.getChart('ev-chart').data.datasets.map((d) => d.data.length)`,
      );
      const historyHome = (JSON.parse(history.body) as { history: Array<{ selection_id: number }> }).history.filter(
        (h) => h.selection_id === SEL.home,
      ).length;
      assert.equal(points[0], historyHome + 20, 'home: its history and 20 live points');
      assert.equal(points[3], 3, 'an opening price per selection');
      assert.equal(points[4], 3, 'a closing price per selection');
      await shot('04-event-chart');

      // A lock of the whole event, with its reason.
      await feed([status('big-1', 'suspended')]);
      await page.locator('#ev-lock', { hasText: 'Locked: suspended' }).waitFor({ timeout: SHOWN });
      await page.waitForSelector('.mk[data-market-id="1"] .price[data-selection-id="12"][data-locked="true"]', {
        timeout: 1_000,
      });
      await feed([status('big-1', 'live')]);

      assert.deepEqual(await axeViolations(), [], 'no serious accessibility violation on the event page');
      await fitsPhone('03-event');
      assert.deepEqual(problems, [], 'no console error');
    },
  );

  test('the result and a gradual settlement appear on the event page', { timeout: 60_000 }, async () => {
    await feed(settleable('done-1', ['Spurs', 'Wolves']));
    await open('/portal/console/events/done-1');
    await page.waitForSelector('.mk[data-market-id="1"] .price[data-selection-id="11"]');
    assert.equal(await page.isVisible('#ev-result'), false);
    await feed([
      {
        type: 'result',
        event_id: 'done-1',
        status: 'ended',
        score: { home: 2, away: 1 },
        period_scores: [
          { period: '1H', home: 1, away: 0 },
          { period: '2H', home: 1, away: 1 },
        ],
      },
    ]);
    await page.locator('#ev-result-text', { hasText: 'Final score 2 – 1' }).waitFor({ timeout: 5_000 });
    await page.waitForSelector('#ev-result[data-pending="1"]', { timeout: 10_000 });
    assert.equal(await page.getAttribute('#ev-result', 'data-resolved'), '2');
    assert.equal(await page.textContent('#ev-status'), 'ended');
    assert.match((await page.textContent('#ev-settle-text')) ?? '', /2 markets resolved, 1 pending/);
    await page.waitForSelector('#ev-settled-groups .mk[data-key="1x2"] [data-result="won"]');
    assert.match(
      (await page.textContent('#ev-settled-groups .mk[data-key="1x2"]')) ?? '',
      /Homewon.*Drawlost.*Awaylost/,
    );
    await shot('05-event-settling');

    await feed([
      {
        type: 'stats',
        event_id: 'done-1',
        final: true,
        players: [{ player_id: 'p9', name: 'Nine', team: 'home', goals: 1 }],
      },
    ]);
    await page.waitForSelector('#ev-result[data-pending="0"]', { timeout: 10_000 });
    assert.match((await page.textContent('#ev-settle-text')) ?? '', /3 markets resolved, 0 pending: fully settled/);
    await page.click('#ev-settled-groups .mk-group[data-family="player_goals"] > summary');
    await page.waitForSelector('#ev-settled-groups .mk[data-key="player_goals_p9:0.5"] [data-result="won"]');
    await shot('06-event-settled');
    assert.deepEqual(await axeViolations(), [], 'no serious accessibility violation on a settled event');
    assert.deepEqual(problems, [], 'no console error');
  });

  test('the settlement feed grows as markets resolve', { timeout: 60_000 }, async () => {
    await open('/portal/console/settlements');
    await page.waitForSelector('.st-entry[data-event-id="done-1"][data-pending="0"]');
    await feed(settleable('done-2', ['Villa', 'Forest']));
    await feed([{ type: 'result', event_id: 'done-2', status: 'ended', score: { home: 0, away: 0 } }]);
    await page.waitForSelector('.st-entry[data-event-id="done-2"][data-pending="1"]', { timeout: 10_000 });
    const order = await page
      .locator('.st-entry')
      .evaluateAll((items) => items.map((li) => li.getAttribute('data-event-id')));
    assert.deepEqual(order, ['done-2', 'done-1'], 'newest first');
    assert.match(
      (await page.textContent('.st-entry[data-event-id="done-2"]')) ?? '',
      /Villa.*Forest.*0 – 0.*2 resolved, 1 pending/,
    );
    assert.equal(await page.textContent('#st-pending'), '1');
    await feed([
      {
        type: 'stats',
        event_id: 'done-2',
        final: true,
        players: [{ player_id: 'p9', name: 'Nine', team: 'home', goals: 0 }],
      },
    ]);
    await page.waitForSelector('.st-entry[data-event-id="done-2"][data-pending="0"]', { timeout: 10_000 });
    assert.equal(await page.textContent('#st-full'), '2');
    assert.equal(await page.textContent('#st-pending'), '0');
    await page.click('.st-entry[data-event-id="done-2"] .st-markets > summary');
    await page.waitForSelector(
      '.st-entry[data-event-id="done-2"] .mk[data-key="player_goals_p9:0.5"] [data-result="lost"]',
    );
    await shot('07-settlements');
    assert.deepEqual(await axeViolations(), [], 'no serious accessibility violation on the settlement feed');
    await fitsPhone('07-settlements');

    // The board lists both among the games just ended, with their results.
    await open('/portal/console');
    await page.waitForSelector('#board-ended .ev-row[data-event-id="done-2"]');
    assert.match(
      (await page.textContent('#board-ended .ev-row[data-event-id="done-1"]')) ?? '',
      /Spurs.*Wolves.*2 – 1.*FT/,
    );
    assert.deepEqual(problems, [], 'no console error');
  });
  // Last: signing up on another service (another port, the same host) replaces the portal's session cookie.
  test(
    'a resume the service cannot serve (snapshot_required) rebuilds the board, the event page and the settlement feed',
    { timeout: 60_000 },
    async () => {
      // A replay window of 0 s: every reconnection is answered snapshot_required (expired), then the snapshot.
      const dir = await mkdtemp(join(tmpdir(), 'console-browser-window-'));
      const other = await createService(
        loadConfig({
          DATA_DIR: dir,
          FEED: 'none',
          ADMIN_KEY: ADMIN,
          LOG_LEVEL: 'silent',
          STALE_LOCK_SECONDS: '0',
          STREAM_REPLAY_SECONDS: '0',
        }),
      );
      try {
        const at = await other.app.listen({ port: 0, host: '127.0.0.1' });
        await feed(
          [
            fixture('w-1', { start_time: iso(-30 * MINUTE), home_team: 'Window Home', away_team: 'Window Away' }),
            markets('w-1'),
            status('w-1', 'live'),
          ],
          other,
        );
        const key = await signUp(other, at);
        const lists: string[] = [];
        const count = (r: { url(): string }) => {
          if (new URL(r.url()).pathname === '/v1/live') lists.push(r.url());
        };
        page.on('request', count);
        await page.goto(`${at}/portal/console?key=${key.keyId}`);
        await page.fill('#cs-secret', key.secret);
        await page.click('#cs-connect');
        await page.waitForSelector(
          `.ev-row[data-event-id="w-1"] .price[data-selection-id="${SEL.home}"][data-odds="2.5"]`,
        );
        assert.equal(lists.length, 1);
        other.app.server.closeAllConnections();
        await feed([odds('w-1', [{ selection_id: SEL.home, odds: 2.2 }])], other);
        await page.waitForSelector(
          `.ev-row[data-event-id="w-1"] .price[data-selection-id="${SEL.home}"][data-odds="2.2"]`,
          {
            timeout: 10_000,
          },
        );
        await page.locator('#cs-status[data-state="open"]').waitFor();
        assert.equal(lists.length, 2, 'the lists were fetched again');
        page.off('request', count);

        // The event page: its markets come back from the snapshot, its detail is asked again.
        const details: string[] = [];
        const countDetail = (r: { url(): string }) => {
          if (new URL(r.url()).pathname === '/v1/events/w-1') details.push(r.url());
        };
        page.on('request', countDetail);
        await page.goto(`${at}/portal/console/events/w-1?key=${key.keyId}`);
        const priced = (o: string) =>
          `.mk[data-market-id="${MARKET.oneXTwo}"] .price[data-selection-id="${SEL.home}"][data-odds="${o}"]`;
        await page.waitForSelector(priced('2.2'));
        await page.locator('#cs-status[data-state="open"]').waitFor();
        const asked = details.length;
        assert.ok(asked >= 1, 'the detail was asked');
        other.app.server.closeAllConnections();
        await feed([odds('w-1', [{ selection_id: SEL.home, odds: 2.05 }])], other);
        await page.waitForSelector(priced('2.05'), { timeout: 10_000 });
        await page.locator('#cs-status[data-state="open"]').waitFor();
        assert.ok(details.length > asked, 'the detail was asked again after snapshot_required');
        page.off('request', countDetail);

        // The settlement feed (no snapshot, and no event yet, so no id to resume after): what was settled
        // while it was away comes from the feed's first page again, once.
        await page.goto(`${at}/portal/console/settlements?key=${key.keyId}`);
        await page.locator('#cs-status[data-state="open"]').waitFor();
        assert.equal(await page.locator('.st-entry[data-event-id="w-1"]').count(), 0);
        other.app.server.closeAllConnections();
        await feed([{ type: 'result', event_id: 'w-1', status: 'ended', score: { home: 2, away: 0 } }], other);
        await page.waitForSelector('.st-entry[data-event-id="w-1"]', { timeout: 10_000 });
        await page.locator('#cs-status[data-state="open"]').waitFor();
        assert.equal(await page.locator('.st-entry[data-event-id="w-1"]').count(), 1, 'once, not twice');
        problems.splice(0); // the dropped connections
      } finally {
        // Leave the page first: its stream would keep the service's close waiting.
        await page.goto('about:blank');
        await other.close();
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});
