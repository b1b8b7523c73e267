// The live console's pages: behind sign-in, a key bar with the account's active keys and every odds format, the page's config and scripts, no secret and no foreign value unescaped.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { STREAM_EVENT_NAMES } from '../../src/api/stream/stream-subscription.js';
import type { ConsoleConfig } from '../../src/portal/pages/console.js';
import { startService, type TestService } from '../helpers/service.js';
import { PortalClient, signedUp } from './portal-client.js';

function configOf(page: string): ConsoleConfig {
  const m = /<script type="application\/json" id="console-config">(.*?)<\/script>/s.exec(page);
  assert.ok(m !== null, 'the page carries its config');
  return JSON.parse(m[1] ?? '{}') as ConsoleConfig;
}

describe('portal live console pages', () => {
  let svc: TestService;
  let client: PortalClient;
  let keyId: string;

  before(async () => {
    svc = await startService();
    client = await signedUp(svc, 'console@example.com');
    keyId = (await client.createKey('console')).id;
  });
  after(() => svc.close());

  test('every console page needs a session', async () => {
    const stranger = new PortalClient(svc);
    for (const path of ['/portal/console', '/portal/console/settlements', '/portal/console/events/e1']) {
      const page = await stranger.get(path);
      assert.equal(page.status, 303, path);
      assert.equal(page.headers.location, '/portal');
    }
  });

  test('without an active key, the console says to create one', async () => {
    const other = await signedUp(svc, 'keyless@example.com');
    const page = await other.get('/portal/console');
    assert.equal(page.status, 200);
    assert.match(page.text, /You have no active key\. <a href="\/portal\/keys">Create one<\/a>/);
    assert.doesNotMatch(page.text, /id="console-config"/);
  });

  test('the board: the key bar with the chosen key and format, filters, its sections and scripts', async () => {
    const page = await client.get(`/portal/console?key=${keyId}&odds_format=american`);
    assert.equal(page.status, 200);
    assert.match(page.text, /<a href="\/portal\/console" aria-current="page">Live console<\/a>/);
    assert.match(page.text, new RegExp(`<option value="${keyId}" selected>console \\(${keyId}\\)</option>`));
    assert.match(page.text, /<option value="american" selected>american<\/option>/);
    for (const f of ['decimal', 'fractional'])
      assert.match(page.text, new RegExp(`<option value="${f}">${f}</option>`));
    for (const id of ['cs-secret', 'board-sport', 'board-league', 'board-live', 'board-soon', 'board-ended']) {
      assert.match(page.text, new RegExp(`id="${id}"`), id);
    }
    assert.match(page.text, /<link rel="stylesheet" href="\/portal\/assets\/console\.css\?v=[0-9a-f]{12}">/);
    assert.match(page.text, /<script src="\/portal\/assets\/console\.js\?v=[0-9a-f]{12}" defer><\/script>/);
    assert.match(page.text, /<script src="\/portal\/assets\/console-board\.js\?v=[0-9a-f]{12}" defer><\/script>/);
    assert.doesNotMatch(page.text, /chart\.umd/, 'the board draws no chart');
    const config = configOf(page.text);
    assert.equal(config.page, 'board');
    assert.ok(config.soonHours > 0 && config.endedMinutes > 0);
    for (const name of [...STREAM_EVENT_NAMES, 'heartbeat', 'snapshot_required']) {
      if (name !== 'outright') assert.ok(config.events.includes(name), `listens to ${name}`);
    }
  });

  test('an unknown odds format falls back to decimal', async () => {
    const page = await client.get('/portal/console?odds_format=<script>');
    assert.match(page.text, /<option value="decimal" selected>decimal<\/option>/);
    assert.doesNotMatch(page.text, /<script>/);
  });

  test('the event page carries its event id as data, escaped, and loads the chart', async () => {
    const id = 'e"<1>';
    const page = await client.get(`/portal/console/events/${encodeURIComponent(id)}`);
    assert.equal(page.status, 200);
    assert.equal(configOf(page.text).eventId, id);
    assert.doesNotMatch(page.text, /e"<1>/);
    assert.match(page.text, /chart\.umd\.min\.js/);
    assert.match(page.text, /console-event\.js/);
    for (const part of ['ev-header', 'ev-scoreboard', 'ev-sport-data', 'ev-chart', 'ev-markets', 'ev-result']) {
      assert.match(page.text, new RegExp(`id="${part}"`), part);
    }
  });

  test('the settlements page', async () => {
    const page = await client.get('/portal/console/settlements');
    assert.equal(page.status, 200);
    assert.equal(configOf(page.text).page, 'settlements');
    assert.match(page.text, /console-settlements\.js/);
    assert.match(page.text, /<a href="\/portal\/console\/settlements" aria-current="page">Settlements<\/a>/);
  });

  test('the console files are served with their types, versioned', async () => {
    for (const [name, type] of [
      ['console.css', 'text/css'],
      ['console.js', 'text/javascript'],
      ['console-board.js', 'text/javascript'],
      ['console-event.js', 'text/javascript'],
      ['console-settlements.js', 'text/javascript'],
    ] as const) {
      const res = await svc.inject('GET', `/portal/assets/${name}`, { key: null });
      assert.equal(res.status, 200, name);
      assert.match(String(res.headers['content-type']), new RegExp(`^${type}`));
      assert.ok(res.text.length > 500, name);
    }
  });
});
