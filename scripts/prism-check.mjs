#!/usr/bin/env node
// Runs Stoplight Prism as a validating proxy in front of a fresh service and sends it the README's and docs/api.md's example requests and the SDK's calls: every request and response violation is listed (docs/contract-validation.md).
//
// Not part of `npm test`: Prism is not a dependency (it is large). Build first (`node scripts/prepare.mjs`), then:
//   PRISM_BIN=/tmp/prism/node_modules/.bin/prism node scripts/prism-check.mjs
// (without PRISM_BIN: `npx --yes @stoplight/prism-cli@5.14.2`). Exit code 1 when any violation was found.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers';
import { URL } from 'node:url';

const KEY = 'prism-check-key';
const ADMIN = 'prism-check-admin';
const PORT = Number(process.env.SERVICE_PORT ?? 3917);
const PROXY_PORT = Number(process.env.PRISM_PORT ?? 4917);
const SERVICE = `http://127.0.0.1:${PORT}`;
const PROXY = `http://127.0.0.1:${PROXY_PORT}`;

const children = [];
function start(command, args, env) {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (c) => (log += c));
  child.stderr.on('data', (c) => (log += c));
  children.push(child);
  return { child, log: () => log };
}

async function until(what, check, timeoutMs = 180_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not up yet
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

const dataDir = await mkdtemp(join(tmpdir(), 'prism-check-'));
const results = [];
try {
  const service = start(process.execPath, ['dist/src/cli.js', 'serve'], {
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DEMO_API_KEY: KEY,
    DEMO_PLAN: 'unlimited',
    ADMIN_KEY: ADMIN,
    LOG_LEVEL: 'warn',
    ACCESS_LOG: 'off',
  });
  await until('the service', async () => (await fetch(`${SERVICE}/readyz`)).status === 200).catch((e) => {
    console.error(service.log());
    throw e;
  });
  const doc = await (await fetch(`${SERVICE}/openapi.json`)).json();
  const docFile = join(dataDir, 'openapi.json');
  await writeFile(docFile, JSON.stringify(doc));

  const [bin, ...binArgs] = (process.env.PRISM_BIN ?? 'npx --yes @stoplight/prism-cli@5.14.2').split(' ');
  const prism = start(bin, [
    ...binArgs,
    'proxy',
    docFile,
    SERVICE,
    '--errors',
    '--port',
    String(PROXY_PORT),
    '--host',
    '127.0.0.1',
  ]);
  await until('Prism', async () => (await fetch(`${PROXY}/v1/status`)).status > 0).catch((e) => {
    console.error(prism.log());
    throw e;
  });

  // Ids and instants for the examples, as README.md takes them, straight from the service.
  const get = async (path) => (await fetch(`${SERVICE}${path}`, { headers: { 'x-api-key': KEY } })).json();
  const live = await get('/v1/live?limit=1');
  const listed = await get('/v1/events?limit=2');
  const eventId = live.events[0]?.id ?? listed.events[0].id;
  const otherId = listed.events[1]?.id ?? eventId;
  const odds = await get(`/v1/events/${eventId}/odds`);
  const market = odds.markets[0];
  const selectionId = market.outcomes[0].selection_id;
  const detail = await get(`/v1/events/${eventId}`);
  const logoId = detail.home_logo.split('/').pop();
  const outrights = await get('/v1/outrights?sport_id=1');
  const t = outrights.tournaments[0];
  const tenMinutesAgo = new Date(Date.now() - 600e3).toISOString();
  const today = new Date().toISOString().slice(0, 10);
  const inAWeek = new Date(Date.now() + 7 * 864e5).toISOString().slice(0, 10);
  const json = { 'content-type': 'application/json' };

  /** [source, method, path, headers, body] */
  const requests = [
    ['README', 'GET', '/v1/status'],
    ['README', 'GET', '/v1/health'],
    ['README', 'GET', '/v1/events?sport=soccer&status=live&limit=20'],
    ['README', 'GET', `/v1/events?league=premier&from=${today}&to=${inAWeek}&odds_format=american`],
    ['README', 'GET', '/v1/events?starts_within=6h'],
    ['README', 'GET', '/v1/live?sport=tennis'],
    ['README', 'GET', '/v1/events/featured?limit=10'],
    ['README', 'GET', `/v1/events/${eventId}`],
    ['README', 'GET', `/v1/events/${eventId}/odds?odds_format=fractional`],
    ['README', 'GET', `/v1/events/${eventId}/odds?at=${tenMinutesAgo}`],
    ['README', 'GET', `/v1/events/${eventId}/odds/history?selection_id=${selectionId}`],
    ['README', 'GET', `/v1/events/${eventId}/result`],
    ['README', 'POST', '/v1/events/batch', json, { ids: [eventId, otherId] }],
    ['README', 'GET', '/v1/leagues'],
    ['README', 'GET', '/v1/sports'],
    ['README', 'GET', '/v1/scores?sport=soccer&limit=50'],
    ['README', 'GET', '/v1/settlements?limit=50'],
    ['README', 'GET', `/v1/settlements?updated_since=${tenMinutesAgo}`],
    ['README', 'GET', `/v1/events/${eventId}/settlement`],
    ['README', 'GET', '/v1/outrights/sports'],
    ['README', 'GET', '/v1/outrights?sport_id=1&odds_format=fractional'],
    ['README', 'GET', '/v1/settlements/outrights?limit=50'],
    [
      'README',
      'POST',
      '/v1/bets/check?explain=true',
      json,
      { legs: [{ event_id: eventId, market: market.key, outcome: market.outcomes[0].code, odds: 2.1 }], stake: 10 },
    ],
    [
      'README',
      'POST',
      '/v1/bets/check',
      json,
      {
        legs: [
          {
            tournament_id: t.tournament_id,
            market_id: t.markets[0].market_id,
            selection_id: t.markets[0].selections[0].selection_id,
            odds: 5,
          },
        ],
        stake: 10,
      },
    ],
    ['README', 'GET', `/api/logo/${logoId}`],
    ['README', 'GET', '/livez'],
    ['README', 'GET', '/readyz'],
    ['README', 'GET', '/metrics', { 'x-admin-key': ADMIN }],
    [
      'README',
      'POST',
      '/admin/v1/feed',
      { 'x-admin-key': ADMIN, 'content-type': 'application/x-ndjson' },
      `${JSON.stringify({ type: 'status', event_id: 'prism-unknown', status: 'live' })}\n`,
    ],
    ['docs/api.md', 'GET', `/v1/events/${eventId}/odds`, { 'accept-encoding': 'br, gzip' }],
    ['docs/api.md', 'GET', `/v1/events/${eventId}/odds`, { 'if-none-match': '"stale"' }],
    ['docs/api.md', 'GET', `/v1/events/${eventId}/odds/history?market_id=${market.market_id}&limit=5`],
    ['docs/api.md', 'GET', `/v1/events?date=${today}`],
    ['docs/api.md', 'GET', '/v1/events/unknown-event'],
    ['docs/api.md', 'GET', '/v1/usage'],
    ['docs/api.md', 'GET', '/v1/usage/warnings'],
    ['docs/api.md', 'GET', `/v1/settlements?event_ids=${eventId},${otherId}&explain=true`],
    ['docs/api.md', 'GET', `/v1/settlements/outrights?tournament_ids=${t.tournament_id}`],
    ['README', 'GET', `/v1/events/${eventId}/odds?markets=1x2,totals`],
    ['docs/api.md', 'GET', `/v1/events/${eventId}?markets=totals`],
    ['docs/api.md', 'GET', `/v1/events/${eventId}/odds?markets=1x2&at=${tenMinutesAgo}`],
    ['docs/api.md', 'POST', '/v1/events/batch?markets=1x2', json, { ids: [eventId, otherId] }],
    ['README', 'GET', '/v1/webhooks'],
  ];

  for (const [source, method, path, headers = {}, body] of requests) {
    const init = {
      method,
      headers: { 'x-api-key': KEY, ...headers },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    };
    results.push(await judge(source, method, path, await fetch(`${PROXY}${path}`, init)));
  }

  // A webhook subscription's life, as docs/webhooks.md shows it (a public address literal: no DNS here).
  const hook = await fetch(`${PROXY}/v1/webhooks`, {
    method: 'POST',
    headers: { 'x-api-key': KEY, ...json },
    body: JSON.stringify({ url: 'https://93.184.216.34/hooks/sports', types: ['settlement', 'result'] }),
  });
  const created = await hook
    .clone()
    .json()
    .catch(() => ({}));
  results.push(await judge('webhooks', 'POST', '/v1/webhooks', hook));
  if (typeof created.id === 'string') {
    const at = `/v1/webhooks/${created.id}`;
    for (const [method, path, body] of [
      ['GET', at],
      ['PATCH', at, { enabled: false }],
      ['GET', `${at}/deliveries`],
      ['POST', `${at}/rotate-secret`],
      ['DELETE', at],
    ]) {
      const init = {
        method,
        headers: { 'x-api-key': KEY, ...(body !== undefined ? json : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      };
      results.push(await judge('webhooks', method, path, await fetch(`${PROXY}${path}`, init)));
    }
  }

  // Requests the service refuses (400 naming the parameter): Prism must refuse them too (422 naming
  // it), from the document alone. Issue 33: the document is as strict as the service.
  const ids51 = Array.from({ length: 51 }, (_, i) => `e${i}`).join(',');
  const refused = [
    ['limit', '/v1/events?limit=201'],
    ['sport', '/v1/events?sport=curling'],
    ['sport', '/v1/scores?sport=Soccer'],
    ['date', '/v1/events?date=2026-02-30'],
    ['from', '/v1/events?from=2026-3-1'],
    ['starts_within', '/v1/events?starts_within=0m'],
    ['starts_within', '/v1/events?starts_within=367d'],
    ['at', `/v1/events/${eventId}/odds?at=2026-11-22T10:00Z`],
    ['at', `/v1/events/${eventId}/odds?at=2026-11-22%2010:00:00Z`],
    ['updated_since', '/v1/settlements?updated_since=2026-11-22T10:00:00%2B0100'],
    ['sport_id', '/v1/outrights?sport_id=20'],
    ['sport_id', '/v1/outrights?sport_id=0'],
    ['market_id', `/v1/events/${eventId}/odds/history?market_id=abc`],
    ['selection_id', `/v1/events/${eventId}/odds/history?selection_id=-1`],
    ['event_ids', `/v1/settlements?event_ids=${ids51}`],
    ['event_ids', '/v1/settlements?event_ids=a,,b'],
    ['tournament_ids', `/v1/settlements/outrights?tournament_ids=${ids51}`],
    ['types', '/v1/stream?types=odds,gossip'],
    ['markets', '/v1/stream?markets=1x2,t%20t'],
    ['event_ids', `/v1/stream?event_ids=${ids51}`],
  ];
  for (const [name, path] of refused) {
    const headers = { 'x-api-key': KEY };
    const viaPrism = await fetch(`${PROXY}${path}`, { headers });
    const problem = await viaPrism.text();
    const direct = await fetch(`${SERVICE}${path}`, { headers });
    const answer = await direct.text();
    const prismRefused = viaPrism.status === 422 && problem.includes(`"${name}"`);
    const serviceRefused = direct.status === 400 && answer.includes(`'${name}'`);
    results.push({
      source: 'refused',
      request: `GET ${path}`,
      status: viaPrism.status,
      violations: null,
      detail:
        prismRefused && serviceRefused ? '' : `Prism: ${problem.slice(0, 300)} | service: ${answer.slice(0, 300)}`,
      expected: `Prism 422 and service 400 naming '${name}'`,
    });
  }

  // The stream's opening answer (its headers) through Prism, then closed.
  const aborter = new globalThis.AbortController();
  const timer = setTimeout(() => aborter.abort(), 5000);
  try {
    const res = await fetch(`${PROXY}/v1/stream?sport=soccer&types=odds,score`, {
      headers: { 'x-api-key': KEY },
      signal: aborter.signal,
    });
    results.push({
      source: 'README',
      request: 'GET /v1/stream?sport=soccer&types=odds,score',
      status: res.status,
      violations: res.headers.get('sl-violations'),
      detail: '',
    });
    aborter.abort();
  } catch (e) {
    results.push({
      source: 'README',
      request: 'GET /v1/stream?sport=soccer&types=odds,score',
      status: 0,
      violations: null,
      detail: '',
      note: `no answer through Prism within 5 s (${e.name}): Prism buffers a response before validating it, and an event stream never ends`,
    });
  } finally {
    clearTimeout(timer);
  }

  // The SDK's calls, through the proxy: its fetch records each answer.
  const { SportsDataClient } = await import(join(process.cwd(), 'dist/sdk/src/index.js'));
  const sdkFetch = async (url, init) => {
    const res = await fetch(url, init);
    const u = new URL(url);
    results.push(await judge('SDK', init?.method ?? 'GET', `${u.pathname}${u.search}`, res.clone()));
    return res;
  };
  const sdk = new SportsDataClient({ baseUrl: PROXY, apiKey: KEY, fetch: sdkFetch });
  const calls = [
    () => sdk.listEvents({ sport: 'soccer', limit: 5 }),
    () => sdk.listFeaturedEvents({ limit: 3 }),
    () => sdk.getEvent(eventId),
    () => sdk.getEventOdds(eventId, { odds_format: 'american' }),
    () => sdk.getEventOddsAt(eventId, tenMinutesAgo),
    () => sdk.getEventOddsHistory(eventId, { market_id: market.market_id, limit: 10 }),
    () => sdk.getEventResult(eventId),
    () => sdk.getEventSettlement(eventId),
    () => sdk.getEventsBatch([eventId, otherId]),
    () => sdk.listLiveEvents({ limit: 5 }),
    () => sdk.listLeagues(),
    () => sdk.listSports(),
    () => sdk.listScores({ limit: 5 }),
    () => sdk.listSettlements({ limit: 5 }),
    () => sdk.listOutrightSettlements({ limit: 5 }),
    () => sdk.listOutrights({ sport_id: 1 }),
    () => sdk.listOutrightSports(),
    () =>
      sdk.checkBet({ legs: [{ event_id: eventId, market: market.key, outcome: market.outcomes[0].code, odds: 2 }] }),
    () => sdk.getUsage(),
    () => sdk.getUsageWarnings(),
    () => sdk.getHealth(),
    () => sdk.getStatus(),
    () => sdk.getLogo(logoId),
  ];
  for (const call of calls) {
    try {
      await call();
    } catch (e) {
      // An error answer is judged like any other (recorded by sdkFetch); a 4xx is not a violation.
      if (!(e instanceof Error) || !('status' in e)) throw e;
    }
  }
} finally {
  for (const c of children) c.kill('SIGTERM');
  await rm(dataDir, { recursive: true, force: true });
}

/** Prism marks a violation with `sl-violations` (and answers 422 or 500 problem+json with --errors). */
async function judge(source, method, path, res) {
  const violations = res.headers.get('sl-violations');
  const problem = (res.headers.get('content-type') ?? '').includes('application/problem+json');
  const detail = problem ? await res.text() : '';
  await res.arrayBuffer().catch(() => undefined);
  return { source, request: `${method} ${path}`, status: res.status, violations, detail };
}

const bad = results.filter((r) => r.violations !== null || r.detail !== '');
for (const r of results) {
  const mark = r.violations !== null || r.detail !== '' ? 'VIOLATION' : r.source === 'refused' ? 'refused' : 'ok';
  console.log(`${mark.padEnd(9)} ${String(r.status).padEnd(4)} ${r.source.padEnd(11)} ${r.request.slice(0, 120)}`);
  if (r.violations !== null) console.log(`          ${r.violations}`);
  if (r.detail !== '') console.log(`          ${r.detail.slice(0, 2000)}`);
  if (r.note !== undefined) console.log(`          ${r.note}`);
}
const operations = new Set(
  results.map((r) => r.request.split('?')[0].replace(/\/v1\/events\/[^/]+/, '/v1/events/{id}')),
);
console.log(
  `\n${results.length} requests (${operations.size} distinct paths) through Prism: ${bad.length} with violations`,
);
process.exit(bad.length === 0 ? 0 : 1);
