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
import { fixture, markets } from '../helpers/service.js';

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

  before(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    dataDir = await mkdtemp(join(tmpdir(), 'portal-browser-'));
    const config = loadConfig({ DATA_DIR: dataDir, FEED: 'none', ADMIN_KEY: ADMIN, LOG_LEVEL: 'silent' });
    service = await createService(config);
    base = await service.app.listen({ port: 0, host: '127.0.0.1' });
    const soon = new Date(Date.now() + 3_600_000).toISOString();
    const feed = [fixture('browser-1', { start_time: soon }), markets('browser-1')];
    const fed = await service.app.inject({
      method: 'POST',
      url: '/admin/v1/feed',
      headers: { 'x-admin-key': ADMIN, 'content-type': 'application/x-ndjson' },
      payload: feed.map((m) => JSON.stringify(m)).join('\n') + '\n',
    });
    assert.equal(fed.statusCode, 200);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    page = await context.newPage();
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
      await shot('03-explorer');

      await page.goto(`${base}/portal/usage?key=${keyId}`);
      assert.equal(await chartTotal(), 1, 'the explorer’s request is on the chart');
      assert.equal(await page.getAttribute('figure.chart', 'data-month-total'), '1');
      await shot('04-usage');

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
