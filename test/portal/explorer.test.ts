// The portal explorer: every client route of the app is in it, each prefilled request works as it is, and the stream panel listens to every stream event.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { STREAM_EVENT_NAMES as API_STREAM_EVENTS } from '../../src/api/stream/stream-subscription.js';
import { explorerEndpoints, STREAM_EVENT_NAMES, type ExplorerEndpoint } from '../../src/portal/pages/explorer.js';
import { explorerSamples } from '../../src/roles/explorer-samples.js';
import {
  feedOk,
  fixture,
  HOUR,
  markets,
  odds,
  SEL,
  startService,
  status,
  type TestService,
} from '../helpers/service.js';
import { PortalClient, signedUp } from './portal-client.js';

/** The contract's client endpoints (interface.md, decisions.md), named here so that a route lost from the app fails too. */
const CONTRACT = [
  'GET /v1/events',
  'GET /v1/events/featured',
  'GET /v1/events/{eventId}',
  'GET /v1/events/{eventId}/odds',
  'GET /v1/events/{eventId}/odds/history',
  'GET /v1/events/{eventId}/result',
  'POST /v1/events/batch',
  'GET /v1/live',
  'GET /v1/leagues',
  'GET /v1/sports',
  'GET /v1/scores',
  'GET /v1/settlements',
  'GET /v1/settlements/outrights',
  'GET /v1/outrights',
  'GET /v1/outrights/sports',
  'POST /v1/bets/check',
  'GET /v1/usage',
  'GET /v1/usage/warnings',
  'GET /v1/health',
  'GET /v1/status',
  'GET /v1/stream',
];

/**
 * Every `METHOD /path` the app serves, read from Fastify's route tree (`printRoutes`), so routes
 * hidden from the OpenAPI document count too. Lines look like `│   ├── /odds (GET, HEAD)`: each
 * level indents by four characters and a child's segment continues its parent's path.
 */
function appRoutes(tree: string): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^([│ ]*)[├└]── (.+?) \(([A-Z, ]+)\)$/.exec(line);
    if (m === null) continue;
    const depth = (m[1] ?? '').length / 4;
    stack.length = depth;
    const path = (stack[depth - 1] ?? '') + (m[2] ?? '');
    stack[depth] = path;
    for (const method of (m[3] ?? '').split(', ')) {
      if (method !== 'HEAD' && method !== 'OPTIONS') out.push(`${method} ${path.replace(/:(\w+)/g, '{$1}')}`);
    }
  }
  return out;
}

/** The endpoints the explorer page hands its script. */
function pageEndpoints(page: string): ExplorerEndpoint[] {
  const m = /<script type="application\/json" id="explorer-endpoints">(.*?)<\/script>/s.exec(page);
  assert.ok(m !== null, 'the page carries its endpoints');
  return JSON.parse(m[1] ?? '[]') as ExplorerEndpoint[];
}

/** The URL the explorer's form sends at first: path parameters and query parameters as prefilled. */
function prefilledUrl(e: ExplorerEndpoint): string {
  let path = e.path;
  const query = new URLSearchParams();
  for (const p of e.params) {
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(p.example ?? ''));
    else if (p.example !== undefined) query.set(p.name, p.example);
  }
  const q = query.toString();
  return q === '' ? path : `${path}?${q}`;
}

describe('portal explorer', () => {
  let svc: TestService;
  let client: PortalClient;
  let secret: string;
  let endpoints: ExplorerEndpoint[];

  before(async () => {
    svc = await startService();
    await feedOk(svc, [
      fixture('ex-soon', { start_time: new Date(svc.clock.now() + HOUR).toISOString() }),
      markets('ex-soon'),
      fixture('ex-live', { start_time: new Date(svc.clock.now() - HOUR).toISOString() }),
      markets('ex-live'),
      status('ex-live', 'live'),
      // The live event's home price is locked: the bet example takes the next open selection.
      odds('ex-live', [{ selection_id: SEL.home, is_locked: true }]),
    ]);
    client = await signedUp(svc, 'explorer@example.com');
    const key = await client.createKey('explorer');
    secret = key.secret;
    // A webhook subscription of the key: the webhook routes' `{id}` is prefilled with it.
    const hook = await svc.inject('POST', '/v1/webhooks', {
      key: secret,
      body: { url: 'https://93.184.216.34/hooks/explorer', types: ['settlement'] },
    });
    assert.equal(hook.status, 201, hook.text);
    const page = await client.get(`/portal/explorer?key=${key.id}`);
    assert.equal(page.status, 200);
    endpoints = pageEndpoints(page.text);
  });
  after(() => svc.close());

  test('every client route of the app is in the explorer, with its method', () => {
    const routes = appRoutes(svc.service.app.printRoutes({ commonPrefix: false }));
    const client = routes.filter((r) => r.split(' ')[1]?.startsWith('/v1/'));
    for (const named of CONTRACT) assert.ok(client.includes(named), `the app serves ${named}`);
    const shown = endpoints.map((e) => `${e.method} ${e.path}`);
    assert.deepEqual([...shown].sort(), [...client].sort());
  });

  test('the stream is the stream panel’s, with its filters; the browser supplies the key and the resume point', () => {
    const stream = endpoints.filter((e) => e.stream);
    assert.deepEqual(
      stream.map((e) => `${e.method} ${e.path}`),
      ['GET /v1/stream'],
    );
    assert.deepEqual(
      stream[0]?.params.map((p) => p.name),
      ['sport', 'league', 'event_ids', 'types', 'markets', 'odds_format', 'snapshot'],
    );
    assert.deepEqual(stream[0]?.params.find((p) => p.name === 'snapshot')?.enum, ['true', 'false']);
  });

  test('the stream panel listens to every event the stream sends', () => {
    for (const name of [...API_STREAM_EVENTS, 'heartbeat', 'snapshot_required', 'close']) {
      assert.ok((STREAM_EVENT_NAMES as readonly string[]).includes(name), `listens to ${name}`);
    }
  });

  test('every GET answers 200 as prefilled, with a real event for the event routes', async () => {
    for (const e of endpoints.filter((x) => x.method === 'GET' && !x.stream)) {
      const url = prefilledUrl(e);
      // The demo key (the free plan's 5 requests a second would refuse a loop), but the webhook
      // routes' own key: a subscription is its key's alone.
      const reply = e.path.startsWith('/v1/webhooks') ? await svc.get(url, { key: secret }) : await svc.get(url);
      assert.equal(reply.status, 200, `${url}: ${reply.text.slice(0, 200)}`);
    }
    const detail = endpoints.find((e) => e.path === '/v1/events/{eventId}');
    assert.equal(detail?.params.find((p) => p.name === 'eventId')?.example, 'ex-live', 'live events first');
  });

  test('the batch and bet check bodies work as they are, naming this service’s events', async () => {
    const batch = endpoints.find((e) => e.method === 'POST' && e.path === '/v1/events/batch');
    const check = endpoints.find((e) => e.method === 'POST' && e.path === '/v1/bets/check');
    assert.deepEqual(JSON.parse(batch?.body ?? '{}'), { ids: ['ex-live', 'ex-soon'] });
    const batchReply = await svc.inject<{ found: number }>('POST', '/v1/events/batch', {
      body: JSON.parse(batch?.body ?? '{}'),
    });
    assert.equal(batchReply.status, 200, batchReply.text);
    assert.equal(batchReply.body.found, 2);

    const bet = JSON.parse(check?.body ?? '{}') as { legs: Array<Record<string, unknown>> };
    assert.deepEqual(bet.legs, [{ event_id: 'ex-live', market_id: 1, selection_id: SEL.draw, odds: 3.2 }]);
    const checked = await svc.inject<{ status: string; legs: Array<{ outcome: string }> }>('POST', '/v1/bets/check', {
      body: bet,
    });
    assert.equal(checked.status, 200, checked.text);
    assert.equal(checked.body.status, 'pending');
    assert.equal(checked.body.legs[0]?.outcome, 'Draw');
  });

  test('with no events yet, the examples name placeholders and every endpoint is still listed', async () => {
    const empty = await startService();
    try {
      await empty.service.app.ready();
      const samples = explorerSamples(empty.service.readModel)();
      assert.deepEqual(samples, { eventIds: [], selection: null });
      const listed = explorerEndpoints(empty.service.app.swagger(), samples);
      assert.equal(listed.length, endpoints.length);
      const batch = listed.find((e) => e.path === '/v1/events/batch');
      assert.deepEqual(JSON.parse(batch?.body ?? '{}'), { ids: ['EVENT_ID'] });
      const detail = listed.find((e) => e.path === '/v1/events/{eventId}');
      assert.equal(detail?.params.find((p) => p.name === 'eventId')?.example, undefined);
    } finally {
      await empty.close();
    }
  });

  test('parameters behind $ref and unions of constants are read as the inline ones', () => {
    const doc = {
      components: {
        parameters: {
          Format: { $ref: '#/components/parameters/FormatInline' },
          FormatInline: { name: 'odds_format', in: 'query', schema: { $ref: '#/components/schemas/OddsFormat' } },
        },
        schemas: {
          OddsFormat: {
            anyOf: [{ const: 'decimal' }, { enum: ['american'] }, { $ref: '#/components/schemas/Frac' }],
            description: 'the format',
          },
          Frac: { type: 'string', enum: ['fractional'] },
        },
      },
      paths: {
        '/v1/things/{id}': {
          get: {
            summary: 'a thing',
            parameters: [
              { $ref: '#/components/parameters/Format' },
              { name: 'id', in: 'path', schema: { type: 'string' } },
              { $ref: '#/nowhere' },
            ],
          },
        },
        '/admin/v1/feed': { post: {} },
      },
    };
    assert.deepEqual(explorerEndpoints(doc), [
      {
        method: 'GET',
        path: '/v1/things/{id}',
        summary: 'a thing',
        stream: false,
        params: [
          {
            name: 'odds_format',
            in: 'query',
            required: false,
            description: 'the format',
            enum: ['decimal', 'american', 'fractional'],
          },
          { name: 'id', in: 'path', required: true, description: '' },
        ],
      },
    ]);
  });

  test('the page never holds a key secret and keeps its scripts out of line', async () => {
    const page = await client.get('/portal/explorer');
    assert.ok(!page.text.includes(secret));
    assert.doesNotMatch(page.text, /<script>(?!\s*<\/script>)/, 'no inline script (CSP script-src self)');
    assert.match(page.text, /id="ex-stream-form"/);
    assert.match(page.text, /id="ex-request-body"/);
  });
});
