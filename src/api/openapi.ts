// The OpenAPI document: every schema with an `$id` becomes a named component referenced by `$ref`; tags, servers, order.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { TSchema } from 'typebox';
import { FEED_MESSAGE_SCHEMAS } from '../pipeline/ingress.js';
import { baseUrlOf, type SiteAddress } from './base-url.js';
import { accessOf, API_VERSION, type RouteAccess } from './context.js';
import * as bets from './schemas/bets.js';
import * as common from './schemas/common.js';
import * as discovery from './schemas/discovery.js';
import * as events from './schemas/events.js';
import * as history from './schemas/history.js';
import * as outrights from './schemas/outrights.js';
import * as settlements from './schemas/settlements.js';
import { STREAM_EVENTS } from './schemas/stream.js';
import * as stream from './schemas/stream.js';
import * as usage from './schemas/usage.js';

/**
 * Names (and the result enum) given here rather than in settlements.ts, whose resolved outcome
 * other work edits at the same time; they can move into that file's `$id`s once both are merged.
 */
function name(schema: TSchema, id: string): void {
  (schema as { $id?: string }).$id = id;
}
name(settlements.ResolvedMarketSchema, 'ResolvedMarket');
name(settlements.ResolvedMarketSchema.properties.outcomes.items, 'ResolvedOutcome');
name(settlements.SettlementEntrySchema, 'SettlementEntry');
name(settlements.SettlementFeedSchema, 'SettlementPage');
name(settlements.ExplainedMarketSchema, 'ExplainedMarket');
name(settlements.ExplainedMarketSchema.properties.outcomes.items, 'ExplainedOutcome');
name(settlements.EventSettlementSchema, 'EventSettlement');
// won, lost or refund (a half result is won or lost with a void_factor), as an enum.
Object.assign(settlements.ResolvedMarketSchema.properties.outcomes.items.properties.result, {
  enum: ['won', 'lost', 'refund'],
});

/** The tags, in the order /docs shows them: what clients call first, then operators, then admins. */
export const TAGS = [
  { name: 'events', description: 'Events, their odds (now, at an instant, history), results and batches' },
  { name: 'discovery', description: 'Sports, leagues, live scores and team logos' },
  { name: 'settlement', description: 'Settlement feeds of matches and outrights, and bet checks' },
  { name: 'outrights', description: 'Outright (futures) markets' },
  { name: 'stream', description: 'Server-Sent Events: every change, resumable (docs/streaming.md)' },
  { name: 'account', description: "The calling key's usage and warnings" },
  {
    name: 'webhooks',
    description:
      'Subscriptions that push results, settlements and status changes to your server, signed (docs/webhooks.md)',
  },
  { name: 'service', description: 'Status and health of the service' },
  { name: 'operator', description: 'Probes and metrics for the operator (not for API clients)' },
  { name: 'admin', description: 'Administration (X-Admin-Key): the feed ingress' },
] as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** The component name of each named schema object (its `$id` in the schema modules). */
const NAMES = new WeakMap<object, string>();

/**
 * Every schema with an `$id` in the exported schemas of the schema modules (nested ones included).
 * The `$id` moves from the schema to NAMES: Fastify's serializer refuses a route schema that meets
 * one `$id` twice (the odds value of each outcome), and the document only needs the name.
 */
function collectComponents(roots: unknown[]): Map<string, Record<string, unknown>> {
  const found = new Map<string, Record<string, unknown>>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!isObject(v)) return;
    if (typeof v.$id === 'string') {
      const id = v.$id;
      const known = found.get(id);
      if (known !== undefined && known !== v) throw new Error(`two different schemas are named ${id}`);
      found.set(id, v);
      NAMES.set(v, id);
      delete v.$id;
    } else if (NAMES.has(v)) return;
    for (const value of Object.values(v)) walk(value);
  };
  walk(roots);
  return found;
}

/** Every schema module: a new one belongs here, or its named schemas stay inline (and keep their `$id`). */
const ROOTS: unknown[] = [
  ...[common, events, history, discovery, outrights, settlements, usage, stream, bets].flatMap((m) => Object.values(m)),
];

/** Every named schema, by name. */
export const COMPONENTS: ReadonlyMap<string, Record<string, unknown>> = collectComponents(ROOTS);

/** A copy of a schema whose named parts (below the top, unless `keepTop` is false) are `$ref`s to their component. */
export function withRefs(schema: unknown, keepTop = true): unknown {
  const copy = (v: unknown, top: boolean): unknown => {
    if (Array.isArray(v)) return v.map((x) => copy(x, false));
    if (!isObject(v)) return v;
    const id = NAMES.get(v);
    if (id !== undefined && !top) return { $ref: `${id}#` };
    // A one-member union only carries a description: the member itself, inline, keeps it.
    if (Array.isArray(v.anyOf) && v.anyOf.length === 1) {
      const { anyOf, ...rest } = v;
      return { ...(copy(anyOf[0], true) as object), ...(copy(rest, true) as object) };
    }
    const out: Record<string, unknown> = {};
    for (const [k, value] of Object.entries(v)) out[k] = copy(value, false);
    return out;
  };
  return copy(schema, keepTop);
}

/** How each error status is described in the document. */
const ERROR_DESCRIPTIONS: Record<string, string> = {
  400: 'bad_request: a parameter or the body is invalid',
  401: 'unauthorized: no valid key',
  404: 'not_found',
  413: 'bad_request: the body is too large',
  429: 'rate_limited: over the per-second limit or the monthly quota (see Retry-After)',
  500: 'server_error',
  503: 'service_unavailable: a component fails (`component` names it)',
};

/** What a 429 answer carries besides its body: when to try again (docs/quotas.md). */
const RATE_LIMITED_HEADERS = {
  'Retry-After': { type: 'integer', minimum: 1, description: 'whole seconds to wait before retrying' },
};

/** What a 503 `service_unavailable` answer carries: a failing component is transient, retry shortly. */
const UNAVAILABLE_HEADERS = {
  'Retry-After': {
    type: 'integer',
    minimum: 1,
    description: 'on service_unavailable: whole seconds to wait before retrying (1)',
  },
};

/** The validator of a cacheable read's 200 (and 304), and the request header that sends it back. */
const ETAG_HEADERS = {
  ETag: { type: 'string', description: 'strong validator of these bytes, one per content coding (docs/api.md)' },
};
const IF_NONE_MATCH = {
  type: 'string',
  description: 'an ETag seen before (a list, W/ tags or * too): 304 with no body while it still matches',
};
const NOT_MODIFIED = {
  type: 'null',
  description: 'not modified: If-None-Match names the current ETag; no body (a keyed read counts as a 200 would)',
  headers: ETAG_HEADERS,
};

/** The SSE response of GET /v1/stream: one schema per event name, each frame's `data`. */
function streamResponse(): Record<string, unknown> {
  const lines = STREAM_EVENTS.map(([event, id]) => `- \`${event}\`: ${id}`);
  return {
    description: [
      'text/event-stream. Each frame is `id: <position>` (not on heartbeat), `event: <name>` and `data: <one JSON object>`. The data schema of each event name:',
      ...lines,
    ].join('\n'),
    content: {
      'text/event-stream': {
        schema: {
          description: 'the `data` of one frame: one of these objects, by event name (x-sse-events)',
          oneOf: STREAM_EVENTS.map(([, id]) => ({ $ref: `${id}#` })),
        },
        'x-sse-events': Object.fromEntries(STREAM_EVENTS.map(([event, id]) => [event, { $ref: `${id}#` }])),
      },
    },
  };
}

interface RouteSchema {
  response?: Record<string, unknown>;
  body?: unknown;
  [key: string]: unknown;
}

const errorRef = { $ref: 'Error#' };

/** Responses that are not JSON (written as bytes or text, no response schema at runtime): documented here. */
const OTHER_RESPONSES: Record<string, Record<string, unknown>> = {
  '/v1/stream': { 200: streamResponse() },
  '/api/logo/{logoId}': {
    200: {
      description: 'the PNG (a placeholder for an unknown id); ETag, cached a day',
      content: { 'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } } },
    },
    400: errorRef,
    500: errorRef,
    503: errorRef,
  },
  '/metrics': {
    200: {
      description: 'Prometheus text exposition format',
      content: { 'text/plain': { schema: { type: 'string' } } },
    },
    401: errorRef,
    500: errorRef,
    503: errorRef,
  },
};

/** The security requirement of each access level: public routes need none, admin routes the admin key. */
const SECURITY: Record<RouteAccess, unknown[] | undefined> = {
  public: [],
  key: undefined, // the document's default: X-API-Key
  admin: [{ adminKey: [] }],
};

/** Route schemas as documented: named parts by `$ref`, described error responses, non-JSON answers, security. */
/**
 * The admin feed's body, for the document only: the route reads its bytes itself (NDJSON is scanned
 * straight into typed arrays, a JSON body parsed whole), so Fastify must not validate it. Each
 * line (or JSON element) is one feed message of docs/contract/feed.md.
 */
function feedRequestBody(): Record<string, unknown> {
  const message = {
    description: 'A feed message (docs/contract/feed.md): its `type` says which',
    anyOf: Object.values(FEED_MESSAGE_SCHEMAS),
  };
  const ndjson = {
    type: 'string',
    description:
      'NDJSON: one feed message (a JSON object, docs/contract/feed.md) per line; each line is validated and applied on its own, in order',
    example:
      '{"type":"fixture","event_id":"e1","sport":"soccer","league":{"slug":"england-premier-league","name":"Premier League","country":"England","tier":1},"home_team":"Arsenal","away_team":"Chelsea","start_time":"2026-12-01T15:00:00Z"}\n{"type":"status","event_id":"e1","status":"live"}',
  };
  return {
    content: {
      'application/x-ndjson': { schema: ndjson },
      'application/ndjson': { schema: ndjson },
      'application/jsonl': { schema: ndjson },
      'application/json': {
        schema: {
          description: 'One message, or an array of them (each element as if it were a line); at most 4 MiB',
          anyOf: [message, { type: 'array', items: message }],
        },
      },
    },
  };
}

function transformRoute({ schema, url, route }: { schema: unknown; url: string; route: RouteOptions }): {
  schema: unknown;
  url: string;
} {
  if (!isObject(schema)) return { schema, url };
  const s = { ...schema } as RouteSchema;
  if (s.body !== undefined) s.body = (withRefs({ x: s.body }) as { x: unknown }).x;
  if (url === '/admin/v1/feed') s.body = feedRequestBody();
  const response: Record<string, unknown> = {};
  const path = url.replace(/:(\w+)/g, '{$1}');
  for (const [status, r] of Object.entries({ ...s.response, ...OTHER_RESPONSES[path] })) {
    const ref = (withRefs({ x: r }) as { x: unknown }).x;
    const described = isObject(ref) && typeof ref.description === 'string';
    const description = ERROR_DESCRIPTIONS[status] ?? (status === '200' && !described ? 'OK' : undefined);
    response[status] = description !== undefined && isObject(ref) ? { ...ref, description } : ref;
  }
  if (isObject(response[429])) response[429] = { ...response[429], headers: RATE_LIMITED_HEADERS };
  if (isObject(response[503])) response[503] = { ...response[503], headers: UNAVAILABLE_HEADERS };
  if (route.config?.etag === true) documentEtag(s, response);
  s.response = response;
  const security = SECURITY[accessOf(route.url, route.config?.access)];
  if (security !== undefined) s.security = security;
  // Browsers' EventSource cannot send headers: the stream also takes the key as `api_key=`.
  if (url === '/v1/stream') s.security = [{ apiKey: [] }, { apiKeyQuery: [] }];
  return { schema: s, url };
}

/** A cacheable read: the ETag of its 200, the If-None-Match request header and the 304 answer. */
function documentEtag(s: RouteSchema, response: Record<string, unknown>): void {
  if (isObject(response[200])) response[200] = { ...response[200], headers: ETAG_HEADERS };
  response[304] = NOT_MODIFIED;
  const headers = isObject(s.headers) ? s.headers : { type: 'object', properties: {} };
  const properties = isObject(headers.properties) ? headers.properties : {};
  s.headers = { ...headers, properties: { ...properties, 'If-None-Match': IF_NONE_MATCH } };
}

const ORDER = new Map<string, number>(TAGS.map((t, i) => [t.name, i]));

/** Paths in the order of their tags (client ones first), so the document and /docs open on the client API. */
function orderPaths(doc: Record<string, unknown>): Record<string, unknown> {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, { tags?: string[] }>>;
  const rank = (item: Record<string, { tags?: string[] }>): number =>
    Math.min(...Object.values(item).map((op) => ORDER.get(op.tags?.[0] ?? '') ?? TAGS.length));
  const sorted = Object.entries(paths)
    .map((entry, i) => ({ entry, i, r: rank(entry[1]) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map(({ entry }) => entry);
  return { ...doc, paths: Object.fromEntries(sorted) };
}

/** Registers the named components, @fastify/swagger (document) and @fastify/swagger-ui (/docs), and GET /openapi.json. */
export async function installOpenApi(app: FastifyInstance, site: SiteAddress): Promise<void> {
  for (const [id, schema] of COMPONENTS) app.addSchema({ ...(withRefs(schema) as object), $id: id });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Sports Data and Settlement API',
        version: API_VERSION,
        license: { name: 'UNLICENSED (proprietary, see package.json)', identifier: 'LicenseRef-Proprietary' },
        description:
          'Read-only real-time sports data: events, odds (decimal, american, fractional), live scores, results and settlements. Send your key in the X-API-Key header.',
      },
      servers: [{ url: site.publicUrl ?? '/', description: 'this service' }],
      tags: TAGS.map((t) => ({ ...t })),
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          adminKey: { type: 'apiKey', in: 'header', name: 'X-Admin-Key' },
          apiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key', description: 'GET /v1/stream only' },
        },
      },
      security: [{ apiKey: [] }],
    },
    // Components are named by their `$id` (Event, Market…), not def-0, def-1.
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    transform: transformRoute as never,
    transformObject: (doc) =>
      ('openapiObject' in doc ? orderPaths(doc.openapiObject as Record<string, unknown>) : doc.swaggerObject) as never,
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });

  // The servers entry names the address the client used (or PUBLIC_URL): a generated client works as is.
  app.get('/openapi.json', { schema: { hide: true } }, async (request) => ({
    ...(app.swagger() as object),
    servers: [{ url: baseUrlOf(request, site), description: 'this service' }],
  }));
}
