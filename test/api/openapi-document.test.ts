// The OpenAPI document as a code generator reads it: operationIds, named components by $ref, tags in client-first order.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startService, type TestService } from '../helpers/service.js';

interface Operation {
  operationId?: string;
  tags?: string[];
  responses: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>;
  requestBody?: { content: Record<string, { schema?: Record<string, unknown> }> };
}
interface Document {
  servers?: Array<{ url: string }>;
  tags?: Array<{ name: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
}

/** The names a typed client (the SDK) is generated with: method, path, operationId. */
const OPERATIONS: ReadonlyArray<readonly [string, string, string]> = [
  ['get', '/v1/events', 'listEvents'],
  ['get', '/v1/events/featured', 'listFeaturedEvents'],
  ['get', '/v1/events/{eventId}', 'getEvent'],
  ['get', '/v1/events/{eventId}/odds', 'getEventOdds'],
  ['get', '/v1/events/{eventId}/odds/history', 'getEventOddsHistory'],
  ['get', '/v1/events/{eventId}/result', 'getEventResult'],
  ['post', '/v1/events/batch', 'getEventsBatch'],
  ['get', '/v1/live', 'listLiveEvents'],
  ['get', '/v1/leagues', 'listLeagues'],
  ['get', '/v1/sports', 'listSports'],
  ['get', '/v1/scores', 'listScores'],
  ['get', '/v1/settlements', 'listSettlements'],
  ['get', '/v1/settlements/outrights', 'listOutrightSettlements'],
  ['get', '/v1/outrights', 'listOutrights'],
  ['get', '/v1/outrights/sports', 'listOutrightSports'],
  ['post', '/v1/bets/check', 'checkBet'],
  ['get', '/v1/stream', 'openStream'],
  ['get', '/v1/usage', 'getUsage'],
  ['get', '/v1/usage/warnings', 'getUsageWarnings'],
  ['get', '/v1/health', 'getHealth'],
  ['get', '/v1/status', 'getStatus'],
  ['get', '/api/logo/{logoId}', 'getLogo'],
  ['get', '/livez', 'livez'],
  ['get', '/readyz', 'readyz'],
  ['get', '/metrics', 'getMetrics'],
  ['post', '/admin/v1/feed', 'postFeed'],
];

const COMPONENTS = [
  'Event',
  'EventList',
  'EventDetail',
  'EventOdds',
  'EventOddsAt',
  'Market',
  'Outcome',
  'Score',
  'EventResult',
  'BatchRequest',
  'BatchResponse',
  'SettlementEntry',
  'SettlementPage',
  'ResolvedMarket',
  'ResolvedOutcome',
  'OutrightSettlementEntry',
  'OutrightSettlementPage',
  'OutrightTournament',
  'OutrightList',
  'League',
  'Sport',
  'LiveScore',
  'Health',
  'Status',
  'Usage',
  'Error',
  'OddsHistoryPage',
  'OddsHistoryEntry',
  'BetCheckRequest',
  'BetCheckResponse',
  'StreamOddsEvent',
  'StreamMarketsEvent',
  'StreamScoreEvent',
  'StreamStatusEvent',
  'StreamResultEvent',
  'StreamSettlementEvent',
  'StreamOutrightEvent',
  'StreamHeartbeat',
  'StreamSnapshotRequired',
  'StreamClose',
];

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

describe('OpenAPI document for code generation', () => {
  let svc: TestService;
  let doc: Document;
  before(async () => {
    svc = await startService();
    doc = (await svc.get<Document>('/openapi.json', { key: null })).body;
  });
  after(() => svc.close());

  test('every operation has its operationId, and no two share one', () => {
    const ids: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        assert.ok(op.operationId, `${method} ${path} has no operationId`);
        ids.push(op.operationId);
      }
    }
    assert.equal(new Set(ids).size, ids.length, `duplicate operationIds: ${ids.join(', ')}`);
    for (const [method, path, id] of OPERATIONS) assert.equal(doc.paths[path]?.[method]?.operationId, id, path);
  });

  test('cacheable reads document their ETag, the If-None-Match header and the 304; other operations do not', () => {
    const cacheable = new Set([
      'listEvents',
      'listFeaturedEvents',
      'getEvent',
      'getEventOdds',
      'getEventOddsHistory',
      'getEventResult',
      'getEventsBatch',
      'listLiveEvents',
      'listLeagues',
      'listSports',
      'listScores',
      'listSettlements',
      'listOutrightSettlements',
      'listOutrights',
      'listOutrightSports',
      'getLogo',
    ]);
    for (const [method, path, id] of OPERATIONS) {
      const op = doc.paths[path]![method]! as Operation & {
        parameters?: Array<{ in: string; name: string }>;
        responses: Record<string, { headers?: Record<string, unknown> }>;
      };
      const inm = (op.parameters ?? []).some((p) => p.in === 'header' && p.name.toLowerCase() === 'if-none-match');
      const etag = Object.keys(op.responses['200']?.headers ?? {}).some((h) => h.toLowerCase() === 'etag');
      const expected = cacheable.has(id);
      assert.equal(op.responses['304'] !== undefined, expected, `${id}: 304`);
      assert.equal(inm, expected, `${id}: If-None-Match parameter`);
      assert.equal(etag, expected, `${id}: ETag header on 200`);
    }
  });

  test('resources are named components, and payloads refer to them by $ref', () => {
    const names = Object.keys(doc.components.schemas);
    for (const name of COMPONENTS) assert.ok(names.includes(name), `no component ${name}`);
    assert.deepEqual(
      names.filter((n) => /^def-\d+$/.test(n)),
      [],
    );
    const json = (path: string, method = 'get', status = '200') =>
      doc.paths[path]?.[method]?.responses[status]?.content?.['application/json']?.schema;
    assert.deepEqual(json('/v1/events'), ref('EventList'));
    assert.deepEqual(json('/v1/events/{eventId}'), ref('EventDetail'));
    assert.deepEqual(json('/v1/settlements'), ref('SettlementPage'));
    assert.deepEqual(json('/v1/events/{eventId}', 'get', '404'), ref('Error'));
    assert.deepEqual(
      doc.paths['/v1/bets/check']?.post?.requestBody?.content['application/json']?.schema,
      ref('BetCheckRequest'),
    );
    const event = doc.components.schemas.EventList as { properties: { events: { items: unknown } } };
    assert.deepEqual(event.properties.events.items, ref('Event'));
  });

  test('the stream documents each event name with the schema of its data', () => {
    const media = doc.paths['/v1/stream']?.get?.responses['200']?.content?.['text/event-stream'] as
      { 'x-sse-events'?: Record<string, unknown> } | undefined;
    const events = media?.['x-sse-events'] ?? {};
    assert.deepEqual(events.odds, ref('StreamOddsEvent'));
    assert.deepEqual(events.snapshot_required, ref('StreamSnapshotRequired'));
    assert.deepEqual(Object.keys(events).sort(), [
      'close',
      'heartbeat',
      'markets',
      'odds',
      'outright',
      'result',
      'score',
      'settlement',
      'snapshot_required',
      'status',
    ]);
  });

  test('client tags come first, operator and admin last; paths follow the same order', () => {
    const tags = (doc.tags ?? []).map((t) => t.name);
    assert.deepEqual(tags.slice(-2), ['operator', 'admin']);
    assert.equal(tags[0], 'events');
    const firstTags = Object.values(doc.paths).map((ops) => Object.values(ops)[0]?.tags?.[0] ?? '');
    const ranks = firstTags.map((t) => tags.indexOf(t));
    assert.deepEqual(
      ranks,
      [...ranks].sort((a, b) => a - b),
      `paths out of tag order: ${firstTags.join(', ')}`,
    );
    assert.equal(doc.paths['/admin/v1/feed']?.post?.tags?.[0], 'admin');
  });

  test('servers names the address the client used', () => {
    assert.deepEqual(
      doc.servers?.map((s) => s.url),
      ['http://localhost:80'],
    );
  });
});

describe('/docs', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
  });
  after(() => svc.close());

  test('the explorer reads the same document, which opens on the client endpoints', async () => {
    const html = await svc.get('/docs/', { key: null });
    assert.equal(html.status, 200);
    const doc = (await svc.get<Document>('/docs/json', { key: null })).body;
    const first = Object.values(doc.paths)[0];
    assert.equal(Object.values(first ?? {})[0]?.tags?.[0], 'events');
    assert.equal(doc.tags?.[0]?.name, 'events');
  });
});
