// The explorer: every client endpoint of /v1 (from the OpenAPI document), sent from the browser with one of your keys, and a stream panel.
import type { FastifyInstance } from 'fastify';
import { sendPage, sessionOf, type PortalContext } from '../context.js';
import { html, jsonData } from '../html.js';
import type { ExplorerSamples } from '../ports.js';

export type ExplorerMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface ExplorerParam {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description: string;
  enum?: string[];
  example?: string;
}

/** What the page's script needs to build a request form for one endpoint. */
export interface ExplorerEndpoint {
  method: ExplorerMethod;
  path: string;
  summary: string;
  /** The Server-Sent Events stream: opened in the stream panel with EventSource, never fetched. */
  stream: boolean;
  params: ExplorerParam[];
  /** A POST's JSON body, prefilled so that it works as it is. */
  body?: string;
}

interface OpenApiSchema {
  $ref?: unknown;
  description?: unknown;
  enum?: unknown;
  const?: unknown;
  anyOf?: unknown;
  oneOf?: unknown;
  type?: unknown;
}

interface OpenApiParam {
  $ref?: unknown;
  name?: unknown;
  in?: unknown;
  required?: unknown;
  description?: unknown;
  schema?: OpenApiSchema;
}

interface OpenApiOperation {
  summary?: unknown;
  parameters?: OpenApiParam[];
  requestBody?: unknown;
}

const METHODS: Array<[string, ExplorerMethod]> = [
  ['get', 'GET'],
  ['post', 'POST'],
  ['patch', 'PATCH'],
  ['delete', 'DELETE'],
];

/** The stream's query parameters the browser fills itself: the key (`api_key`) and the resume point (EventSource's `Last-Event-ID`). */
const STREAM_OWN_PARAMS = new Set(['api_key', 'last_event_id']);

/**
 * The names of the stream's events, for the page's EventSource listeners (EventSource delivers a
 * named event only to a listener of that name). A test checks them against the stream's own list.
 */
export const STREAM_EVENT_NAMES = [
  'odds',
  'markets',
  'score',
  'status',
  'result',
  'settlement',
  'outright',
  'heartbeat',
  'snapshot_required',
  'close',
] as const;

/** Events the stream panel keeps on screen (newest first): enough to follow, bounded for a busy stream. */
export const STREAM_LIST_MAX = 100;

const NO_SAMPLES: ExplorerSamples = { eventIds: [], selection: null };

/** Bodies that work as they are: real ids from the service's data when it has some, placeholders otherwise. */
function sampleBody(path: string, samples: ExplorerSamples): string | undefined {
  const eventId = samples.eventIds[0] ?? 'EVENT_ID';
  if (path === '/v1/events/batch') {
    const ids = samples.eventIds.length > 0 ? samples.eventIds : [eventId];
    return JSON.stringify({ ids }, null, 2);
  }
  if (path === '/v1/bets/check') {
    const leg = samples.selection ?? { event_id: eventId, market: '1x2', outcome: '1', odds: 2 };
    return JSON.stringify({ legs: [leg], stake: 10 }, null, 2);
  }
  if (path === '/v1/webhooks') {
    return JSON.stringify({ url: 'https://example.com/hooks/sports', types: ['settlement', 'result'] }, null, 2);
  }
  if (path === '/v1/webhooks/{id}') return JSON.stringify({ enabled: true }, null, 2);
  if (path === '/v1/webhooks/{id}/replay') {
    return JSON.stringify({ since: new Date(Date.now() - 3_600_000).toISOString() }, null, 2);
  }
  return undefined;
}

/** A parameter's first value: one that answers at once (a small page, a real event). */
function sampleParam(name: string, samples: ExplorerSamples): string | undefined {
  if (name === 'limit') return '5';
  if (name === 'eventId') return samples.eventIds[0];
  // The webhook routes' `{id}`: the chosen key's first subscription, when it has one.
  if (name === 'id') return samples.webhookId;
  return undefined;
}

/** Follows a local `$ref` (`#/components/…`), as named components do; anything else as it is. */
function resolved<T extends { $ref?: unknown }>(doc: unknown, node: T | undefined): T | undefined {
  let out: unknown = node;
  for (let hops = 0; hops < 8 && typeof (out as T | undefined)?.$ref === 'string'; hops++) {
    const ref = (out as T).$ref as string;
    if (!ref.startsWith('#/')) return undefined;
    out = ref
      .slice(2)
      .split('/')
      .reduce<unknown>(
        (at, part) =>
          typeof at === 'object' && at !== null
            ? (at as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')]
            : undefined,
        doc,
      );
  }
  return out as T | undefined;
}

/** The values a parameter allows: `enum`, a union of constants (`anyOf`/`oneOf`), or a boolean's two. */
function allowedValues(doc: unknown, schema: OpenApiSchema | undefined): string[] {
  const s = resolved(doc, schema);
  if (s === undefined) return [];
  if (Array.isArray(s.enum)) return s.enum.filter((v): v is string => typeof v === 'string');
  if (typeof s.const === 'string') return [s.const];
  const union = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : null;
  if (union !== null) return union.flatMap((u: OpenApiSchema) => allowedValues(doc, u));
  return s.type === 'boolean' ? ['true', 'false'] : [];
}

function explorerParam(doc: unknown, raw: OpenApiParam, samples: ExplorerSamples): ExplorerParam | null {
  const p = resolved(doc, raw);
  if (p === undefined || typeof p.name !== 'string' || (p.in !== 'path' && p.in !== 'query')) return null;
  const description = typeof p.description === 'string' ? p.description : resolved(doc, p.schema)?.description;
  const values = allowedValues(doc, p.schema);
  const example = sampleParam(p.name, samples);
  return {
    name: p.name,
    in: p.in,
    required: p.in === 'path' || p.required === true,
    description: typeof description === 'string' ? description : '',
    ...(values.length > 0 ? { enum: values } : {}),
    ...(example !== undefined ? { example } : {}),
  };
}

/** Every GET and POST of /v1 with its parameters, from the app's OpenAPI document (so the list cannot drift from the routes). */
export function explorerEndpoints(doc: unknown, samples: ExplorerSamples = NO_SAMPLES): ExplorerEndpoint[] {
  const paths = (doc as { paths?: Record<string, Record<string, unknown>> }).paths ?? {};
  const out: ExplorerEndpoint[] = [];
  for (const [path, ops] of Object.entries(paths)) {
    if (!path.startsWith('/v1/')) continue;
    for (const [key, method] of METHODS) {
      const op = ops[key] as OpenApiOperation | undefined;
      if (op === undefined) continue;
      const stream = method === 'GET' && path === '/v1/stream';
      const params: ExplorerParam[] = [];
      for (const p of op.parameters ?? []) {
        const param = explorerParam(doc, p, samples);
        if (param !== null && !(stream && STREAM_OWN_PARAMS.has(param.name))) params.push(param);
      }
      const body = method === 'POST' || method === 'PATCH' ? (sampleBody(path, samples) ?? '{}') : undefined;
      out.push({
        method,
        path,
        summary: typeof op.summary === 'string' ? op.summary : '',
        stream,
        params,
        ...(body !== undefined ? { body } : {}),
      });
    }
  }
  return out.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

/** The stream panel: filters from the stream's parameters (filled by the script), open/close, the events as they come. */
function streamPanel(stream: ExplorerEndpoint | undefined) {
  if (stream === undefined) return '';
  return html`<section class="card" id="ex-stream" aria-labelledby="ex-stream-title">
    <h2 id="ex-stream-title">Stream <code>GET ${stream.path}</code></h2>
    <p class="hint">
      Opens the Server-Sent Events stream with the key above (as <code>api_key=</code>, since a browser's EventSource
      cannot send headers). If the connection drops, the browser reconnects and resumes after the last event it got
      (<code>Last-Event-ID</code>). Opening counts one request, and each started 5 minutes one more; your plan limits
      how many streams a key holds at once.
    </p>
    <form id="ex-stream-form" data-explorer-stream>
      <div id="ex-stream-params" class="params"></div>
      <p class="request-line">Stream: <code id="ex-stream-url"></code></p>
      <div class="button-row">
        <button type="submit" id="ex-stream-open">Open stream</button>
        <button type="button" id="ex-stream-close" class="secondary" disabled>Close stream</button>
      </div>
    </form>
    <p id="ex-stream-status" role="status" aria-live="polite">Closed.</p>
    <p id="ex-stream-beat" class="hint"></p>
    <ol id="ex-stream-events" class="stream-events" aria-label="Stream events, newest first" reversed></ol>
  </section>`;
}

export function explorerPages(app: FastifyInstance, pctx: PortalContext): void {
  app.get('/explorer', async (request, reply) => {
    const session = sessionOf(request);
    const keys = (await pctx.ports.keyAdmin.listOfAccount(session.account.id)).filter((k) => k.revokedAt === null);
    const q = request.query as Record<string, unknown>;
    const wanted = typeof q.key === 'string' ? q.key : '';
    if (keys.length === 0) {
      const body = html`<p>
        You have no active key. <a href="/portal/keys">Create one</a>, then come back to try it.
      </p>`;
      return sendPage(pctx, reply, { title: 'Explorer', nav: 'explorer', session, body });
    }
    // Built per page: the samples follow the service's data (an event that ended yesterday is no example today).
    const chosen = keys.find((k) => k.id === wanted) ?? keys[0];
    const webhooks = chosen === undefined ? [] : ((await pctx.ports.webhooks?.list(chosen)) ?? []);
    const samples = { ...pctx.ports.samples(), webhookId: webhooks[0]?.id };
    const endpoints = explorerEndpoints(request.server.swagger(), samples);
    const keyOptions = keys.map(
      (k) => html`<option value="${k.id}" ${k.id === wanted ? html` selected` : ''}>${k.name} (${k.id})</option>`,
    );
    const first = endpoints.findIndex((e) => e.method === 'GET' && e.path === '/v1/events');
    const endpointOptions = endpoints.map((e, i) =>
      e.stream
        ? ''
        : html`<option value="${i}" ${i === first ? html` selected` : ''}>
            ${e.method} ${e.path}${e.summary === '' ? '' : ` · ${e.summary}`}
          </option>`,
    );
    const body = html` <p class="lead">
        Send a request with one of your keys and read the answer, or open the stream and watch its events arrive. The
        requests go from this browser straight to the API and count in the key's usage like any other.
      </p>
      <noscript
        ><p class="form-error">
          The explorer needs JavaScript. Without it, use the <a href="/portal/start">curl examples</a>.
        </p></noscript
      >
      <form id="explorer" class="card" data-explorer>
        <div class="field-pair">
          <div>
            <label for="ex-key">Key</label>
            <select id="ex-key" name="key">
              ${keyOptions}
            </select>
          </div>
          <div>
            <label for="ex-secret">Secret of this key</label>
            <input
              id="ex-secret"
              name="secret"
              type="password"
              autocomplete="off"
              spellcheck="false"
              required
              aria-describedby="ex-secret-hint"
            />
          </div>
        </div>
        <p class="hint" id="ex-secret-hint">
          The secret was shown once, when you created the key. It stays in this browser tab (never in a cookie or on
          disk) and is never sent to the portal, only to the API.
        </p>
        <label for="ex-endpoint">Endpoint</label>
        <select id="ex-endpoint" name="endpoint">
          ${endpointOptions}
        </select>
        <div id="ex-params" class="params" aria-live="off"></div>
        <div id="ex-body-field" hidden>
          <label for="ex-request-body">Request body (JSON)</label>
          <textarea
            id="ex-request-body"
            class="json-editor"
            rows="14"
            spellcheck="false"
            autocomplete="off"
            aria-describedby="ex-request-body-hint"
          ></textarea>
          <p class="hint" id="ex-request-body-hint">
            Prefilled with an example from this service's data.
            <button type="button" id="ex-body-reset" class="button-link">Restore the example</button>
          </p>
        </div>
        <div class="check-row">
          <input id="ex-conditional" type="checkbox" aria-describedby="ex-conditional-hint" />
          <label for="ex-conditional">Conditional request</label>
          <p class="hint" id="ex-conditional-hint">
            Sends <code>If-None-Match</code> with the ETag of this URL's last answer: unchanged data answers 304 with no
            body (it still counts as a request).
          </p>
        </div>
        <p class="request-line">Request: <code id="ex-url"></code></p>
        <button type="submit" id="ex-send">Send request</button>
      </form>
      <section class="card" aria-labelledby="ex-result-title">
        <h2 id="ex-result-title">Response</h2>
        <p id="ex-status" role="status" aria-live="polite">No request sent yet.</p>
        <dl id="ex-headers" class="headers"></dl>
        <pre id="ex-body" class="json" tabindex="0" aria-label="Response body"><code></code></pre>
      </section>
      ${streamPanel(endpoints.find((e) => e.stream))}
      <script type="application/json" id="explorer-endpoints">
        ${jsonData(endpoints)}
      </script>
      <script type="application/json" id="explorer-stream-config">
        ${jsonData({ events: STREAM_EVENT_NAMES, max: STREAM_LIST_MAX })}
      </script>`;
    return sendPage(pctx, reply, { title: 'Explorer', nav: 'explorer', session, body });
  });
}
