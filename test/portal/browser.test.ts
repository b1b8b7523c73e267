// The portal in a real browser (Debian chromium through playwright-core): sign up, create a key, call the API from the explorer, watch the usage chart, revoke.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { loadConfig } from '../../src/config.js';
import { createService, type Service } from '../../src/service.js';
import { fixture, markets, odds, SEL } from '../helpers/service.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = join('test-artifacts', 'portal');
const ADMIN = 'browser-test-admin-key';
const skip = existsSync(CHROMIUM)
  ? false
  : `no chromium at ${CHROMIUM}: install it (apt-get install -y chromium) or set CHROMIUM_PATH to run the browser test`;

describe('portal in a browser', { skip }, () => {
  let dataDir: string;
  let service: Service;
  let base: string;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  /** The request headers of every stream the page opened (EventSource's reconnections included). */
  const streamRequests: Array<Promise<Record<string, string>>> = [];

  before(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    dataDir = await mkdtemp(join(tmpdir(), 'portal-browser-'));
    const config = loadConfig({ DATA_DIR: dataDir, FEED: 'none', ADMIN_KEY: ADMIN, LOG_LEVEL: 'silent' });
    service = await createService(config);
    base = await service.app.listen({ port: 0, host: '127.0.0.1' });
    const soon = new Date(Date.now() + 3_600_000).toISOString();
    await feed([fixture('browser-1', { start_time: soon }), markets('browser-1')]);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    page = await context.newPage();
    page.on('request', (r) => {
      // allHeaders(): the headers as sent, those the network stack adds (Last-Event-ID) included.
      if (new URL(r.url()).pathname === '/v1/stream') streamRequests.push(r.allHeaders());
    });
    // A blocked script or style (CSP) or a script error shows here.
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  });

  after(async () => {
    await browser?.close();
    await service?.close();
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  });

  /** Sends feed messages through the admin feed, as a producer would. */
  async function feed(messages: object[]): Promise<void> {
    const fed = await service.app.inject({
      method: 'POST',
      url: '/admin/v1/feed',
      headers: { 'x-admin-key': ADMIN, 'content-type': 'application/x-ndjson' },
      payload: messages.map((m) => JSON.stringify(m)).join('\n') + '\n',
    });
    assert.equal(fed.statusCode, 200, fed.body);
    assert.equal((JSON.parse(fed.body) as { rejected: number }).rejected, 0, fed.body);
  }

  /** Picks the explorer's endpoint whose option reads `METHOD /path · …`. */
  async function chooseEndpoint(methodAndPath: string): Promise<void> {
    // Run in the page (a string: the test's TypeScript has no DOM types).
    const value = await page.evaluate<string | null>(
      `[...document.querySelectorAll('#ex-endpoint option')]
        .find((o) => o.textContent.trim().split(' ·')[0] === ${JSON.stringify(methodAndPath)})
        ?.getAttribute('value') ?? null`,
    );
    assert.ok(value !== null, `the explorer lists ${methodAndPath}`);
    await page.selectOption('#ex-endpoint', value);
  }

  /** Sends the explorer's form and returns the status it shows and the JSON body. */
  async function send<T>(): Promise<{ status: string; text: string; body: T | null }> {
    await page.evaluate("document.querySelector('#ex-status').removeAttribute('data-status')");
    await page.click('#ex-send');
    await page.waitForSelector('#ex-status[data-status]');
    const status = (await page.getAttribute('#ex-status', 'data-status')) ?? '';
    const text = (await page.textContent('#ex-body')) ?? '';
    try {
      return { status, text, body: JSON.parse(text) as T };
    } catch {
      return { status, text, body: null };
    }
  }

  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });

  /** What the chart draws: the sum of its requests dataset, read from Chart.js itself. */
  async function chartTotal(): Promise<number> {
    await page.waitForSelector('figure[data-chart-ready]');
    // Run in the page (a string: the test's TypeScript has no DOM types).
    return page.evaluate<number>(
      "Chart.getChart('usage-chart').data.datasets[0].data.reduce((a, b) => a + (typeof b === 'number' ? b : 0), 0)",
    );
  }

  test(
    'sign up, create a key, use it in the explorer, see the usage go up, revoke it',
    { timeout: 120_000 },
    async () => {
      await page.goto(`${base}/portal`);
      await shot('01-landing');
      await page.fill('#sign-up-email', 'browser@example.com');
      await page.fill('#sign-up-password', 'a long browser password');
      await page.click('text=Create account');
      await page.waitForURL(/\/portal\/keys/);
      assert.match((await page.textContent('.notice')) ?? '', /Your account is ready/);

      await page.fill('#key-name', 'browser key');
      await page.click('button:has-text("Create key")');
      const secretBox = page.locator('#new-secret');
      const secret = await secretBox.inputValue();
      const keyId = (await secretBox.getAttribute('data-key-id')) ?? '';
      assert.match(secret, /^sk_/);
      await page.click('button[data-copy="new-secret"]');
      await page.waitForFunction("document.querySelector('[data-copy-status=\"new-secret\"]').textContent !== ''");
      assert.match((await page.textContent('[data-copy-status="new-secret"]')) ?? '', /Copied|Selected/);
      await shot('02-new-key');

      await page.goto(`${base}/portal/usage?key=${keyId}`);
      assert.equal(await chartTotal(), 0, 'no requests yet');

      await page.goto(`${base}/portal/keys`);
      assert.equal(await page.locator('#new-secret').count(), 0, 'the secret is shown once');
      await page.goto(`${base}/portal/explorer?key=${keyId}`);
      await page.fill('#ex-secret', secret);
      assert.match((await page.textContent('#ex-url')) ?? '', /^GET \/v1\/events/);
      await page.click('button:has-text("Send request")');
      await page.waitForSelector('#ex-status[data-status]');
      assert.equal(await page.getAttribute('#ex-status', 'data-status'), '200');
      const answer = JSON.parse((await page.textContent('#ex-body')) ?? '{}') as { events?: Array<{ id: string }> };
      assert.deepEqual(
        answer.events?.map((e) => e.id),
        ['browser-1'],
      );
      assert.match((await page.textContent('#ex-headers')) ?? '', /x-ratelimit-remaining9999/);
      const etag = /etag("[^"]+")/.exec((await page.textContent('#ex-headers')) ?? '')?.[1];
      assert.ok(etag !== undefined, 'the ETag is shown');
      assert.match((await page.textContent('#ex-headers')) ?? '', /x-ratelimit-reset\d+ \(\d{4}-\d\d-01T00:00:00Z\)/);
      await page.check('#ex-conditional');
      assert.equal((await page.textContent('#ex-url'))?.trim(), `GET /v1/events?limit=5 · If-None-Match: ${etag}`);
      const unchanged = await send<unknown>();
      assert.equal(unchanged.status, '304', 'unchanged: 304');
      assert.match(unchanged.text, /304 Not Modified: no body/);
      await page.uncheck('#ex-conditional');
      await shot('03-explorer');

      await page.goto(`${base}/portal/usage?key=${keyId}`);
      assert.equal(await chartTotal(), 2, 'the explorer’s requests (the 304 too) are on the chart');
      assert.equal(await page.getAttribute('figure.chart', 'data-month-total'), '2');
      await shot('04-usage');

      // The POSTs, prefilled with this service's own event: the secret is still in the tab.
      await page.goto(`${base}/portal/explorer?key=${keyId}`);
      assert.equal(await page.inputValue('#ex-secret'), secret, 'the secret stays in the tab (sessionStorage)');
      const cookies = await page.context().cookies();
      assert.ok(
        cookies.every((c) => !c.value.includes(secret)),
        'never in a cookie',
      );
      assert.equal(await page.evaluate<number>('localStorage.length'), 0, 'never in localStorage');
      await chooseEndpoint('POST /v1/events/batch');
      assert.equal(await page.isVisible('#ex-request-body'), true);
      assert.deepEqual(JSON.parse(await page.inputValue('#ex-request-body')), { ids: ['browser-1'] });
      assert.equal((await page.textContent('#ex-url'))?.trim(), 'POST /v1/events/batch');
      const batch = await send<{ found: number; events: Record<string, { id: string }> }>();
      assert.equal(batch.status, '200');
      assert.equal(batch.body?.found, 1);
      assert.match((await page.textContent('#ex-headers')) ?? '', /etag"/);
      await shot('04a-explorer-batch');

      await chooseEndpoint('POST /v1/bets/check');
      const example = JSON.parse(await page.inputValue('#ex-request-body')) as { legs: Array<{ event_id: string }> };
      assert.equal(example.legs[0]?.event_id, 'browser-1');
      const check = await send<{ status: string; legs: Array<{ outcome: string }>; combined_odds: number }>();
      assert.equal(check.status, '200');
      assert.equal(check.body?.status, 'pending');
      assert.equal(check.body?.legs[0]?.outcome, 'Home');
      assert.equal(check.body?.combined_odds, 2.5);
      await page.fill('#ex-request-body', '{"legs": [');
      assert.equal((await send<unknown>()).status, 'invalid-body', 'a body that is not JSON is caught before sending');
      assert.equal(await page.getAttribute('#ex-request-body', 'aria-invalid'), 'true');
      await page.fill('#ex-request-body', '{"legs": []}');
      assert.equal((await send<unknown>()).status, '400', 'the API’s refusal is shown');
      assert.deepEqual(
        problems.splice(0),
        ['console: Failed to load resource: the server responded with a status of 400 (Bad Request)'],
        'the browser reports the refusal, and nothing else',
      );
      await page.click('#ex-body-reset');
      assert.deepEqual(JSON.parse(await page.inputValue('#ex-request-body')), example);
      await shot('04b-explorer-bet-check');

      // The stream panel: open it on our event, feed a price change, see it arrive; then many, newest first and bounded.
      await page.fill('#ex-stream-param-event_ids', 'browser-1');
      assert.equal(
        (await page.textContent('#ex-stream-url'))?.trim(),
        'GET /v1/stream?event_ids=browser-1&api_key=…',
        'the key is never shown',
      );
      await page.click('#ex-stream-open');
      await page.waitForSelector('#ex-stream-status[data-state="open"]');
      await feed([odds('browser-1', [{ selection_id: SEL.home, odds: 2.4 }])]);
      const first = page.locator('#ex-stream-events li[data-event="odds"]').first();
      await first.waitFor();
      const data = JSON.parse((await first.locator('pre').textContent()) ?? '{}') as {
        event_id?: string;
        changes?: Array<{ selection_id: number; odds: number }>;
      };
      assert.equal(data.event_id, 'browser-1');
      assert.deepEqual(
        data.changes?.map((c) => [c.selection_id, c.odds]),
        [[SEL.home, 2.4]],
      );
      assert.match((await first.getAttribute('data-id')) ?? '', /\S/, 'each event shows its id');
      assert.match((await first.textContent()) ?? '', /^odds/);
      await shot('04c-explorer-stream');

      // The connection drops: EventSource reconnects by itself and resumes after the last id it got.
      const lastId = (await first.getAttribute('data-id')) ?? '';
      assert.equal(streamRequests.length, 1);
      assert.match((await streamRequests[0])?.['accept'] ?? '', /text\/event-stream/);
      service.app.server.closeAllConnections();
      // Locators rather than waitForFunction: the page's CSP forbids evaluating strings while polling.
      await page.locator('#ex-stream-status', { hasText: 'reconnecting' }).waitFor();
      await page.waitForSelector('#ex-stream-status[data-state="open"]', { timeout: 10_000 });
      assert.equal(streamRequests.length, 2);
      assert.equal((await streamRequests[1])?.['last-event-id'], lastId, 'resumed with Last-Event-ID');
      await feed([odds('browser-1', [{ selection_id: SEL.home, odds: 2.3 }])]);
      await page.locator('#ex-stream-events li').nth(1).waitFor();
      const ids = await page
        .locator('#ex-stream-events li')
        .evaluateAll((items) => items.map((li) => li.getAttribute('data-id')));
      assert.equal(ids[1], lastId, 'the event before the drop, once');
      assert.notEqual(ids[0], lastId, 'the new one on top');
      problems.splice(0); // the dropped connection shows as a network error

      const prices = Array.from({ length: 109 }, (_, i) => 2 + (i + 1) / 100);
      await feed(prices.map((p) => odds('browser-1', [{ selection_id: SEL.away, odds: p }])));
      await page.locator('#ex-stream-events li:first-child pre', { hasText: `"odds": ${prices.at(-1)}` }).waitFor();
      assert.equal(await page.locator('#ex-stream-events li').count(), 100, 'a bounded list');
      assert.match((await page.textContent('#ex-stream-status')) ?? '', /111 events received/);
      await page.click('#ex-stream-close');
      assert.equal(await page.getAttribute('#ex-stream-status', 'data-state'), 'closed');

      // A refused stream says why (EventSource itself cannot read the error).
      await page.fill('#ex-stream-param-types', 'odds,nonsense');
      await page.click('#ex-stream-open');
      await page.locator('#ex-stream-status', { hasText: 'refused: ' }).waitFor();
      assert.match(
        (await page.textContent('#ex-stream-status')) ?? '',
        /The stream was refused: 400 bad_request: query parameter 'types' has an unknown event name 'nonsense'/,
      );
      assert.equal(await page.locator('#ex-stream-events li').count(), 0);
      assert.ok(
        problems.splice(0).every((p) => p.includes('status of 400')),
        'only the refusals are reported by the browser',
      );

      await page.setViewportSize({ width: 390, height: 844 });
      await shot('04d-explorer-phone');
      const explorerOverflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
      assert.ok(explorerOverflow <= 0, `the explorer fits a phone's width (overflows by ${explorerOverflow}px)`);
      await page.setViewportSize({ width: 1200, height: 900 });

      await page.goto(`${base}/portal/keys`);
      await page.click(`tr[data-key-id="${keyId}"] >> text=Revoke…`);
      await page.waitForURL(/\/revoke$/);
      await shot('05-revoke-confirm');
      await page.click('button:has-text("Revoke this key")');
      await page.waitForURL(/revoked=/);
      assert.match((await page.textContent('.notice')) ?? '', /revoked/);
      await shot('06-revoked');

      assert.deepEqual(problems, [], 'no script errors or blocked resources');
      const status = await page.evaluate(
        async (key) => (await fetch('/v1/sports', { headers: { 'X-API-Key': key } })).status,
        secret,
      );
      assert.equal(status, 401, 'the API refuses the revoked key');
      problems.length = 0; // the browser reports that refusal as a failed load

      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${base}/portal/keys`);
      await shot('07-keys-phone');
      const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
      assert.ok(overflow <= 0, `the keys page fits a phone's width (overflows by ${overflow}px)`);
      await page.goto(`${base}/portal/usage?key=${keyId}`);
      await chartTotal();
      await shot('08-usage-phone');
      await page.goto(`${base}/portal/start`);
      await shot('09-start-phone');

      assert.deepEqual(problems, [], 'no script errors or blocked resources');
    },
  );
});
