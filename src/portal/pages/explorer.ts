// The explorer: pick one of your keys and a GET endpoint (from the OpenAPI document), send it from the browser, read the JSON.
import type { FastifyInstance } from 'fastify';
import { sendPage, sessionOf, type PortalContext } from '../context.js';
import { html, jsonData } from '../html.js';

/** What the page's script needs to build a request form for one endpoint. */
export interface ExplorerEndpoint {
  path: string;
  summary: string;
  params: Array<{
    name: string;
    in: 'path' | 'query';
    required: boolean;
    description: string;
    enum?: string[];
    example?: string;
  }>;
}

interface OpenApiParam {
  name?: unknown;
  in?: unknown;
  required?: unknown;
  description?: unknown;
  schema?: { description?: unknown; enum?: unknown; default?: unknown; type?: unknown };
}

/** Defaults that make the first request of an endpoint work as it is. */
const EXAMPLES: Record<string, string> = { limit: '5' };

/** The GET endpoints of /v1 with their path and query parameters, from the app's OpenAPI document. */
export function explorerEndpoints(doc: unknown): ExplorerEndpoint[] {
  const paths = (doc as { paths?: Record<string, Record<string, unknown>> }).paths ?? {};
  const out: ExplorerEndpoint[] = [];
  for (const [path, ops] of Object.entries(paths)) {
    const get = ops.get as { summary?: unknown; parameters?: OpenApiParam[] } | undefined;
    if (!path.startsWith('/v1/') || get === undefined) continue;
    const params: ExplorerEndpoint['params'] = [];
    for (const p of get.parameters ?? []) {
      if (typeof p.name !== 'string' || (p.in !== 'path' && p.in !== 'query')) continue;
      const description = typeof p.description === 'string' ? p.description : p.schema?.description;
      const values = Array.isArray(p.schema?.enum) ? p.schema.enum.filter((v) => typeof v === 'string') : undefined;
      const example = EXAMPLES[p.name];
      params.push({
        name: p.name,
        in: p.in,
        required: p.in === 'path' || p.required === true,
        description: typeof description === 'string' ? description : '',
        ...(values !== undefined && values.length > 0 ? { enum: values } : {}),
        ...(example !== undefined ? { example } : {}),
      });
    }
    out.push({ path, summary: typeof get.summary === 'string' ? get.summary : '', params });
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

export function explorerPages(app: FastifyInstance, pctx: PortalContext): void {
  let endpoints: ExplorerEndpoint[] | null = null;

  app.get('/explorer', async (request, reply) => {
    const session = sessionOf(request);
    endpoints ??= explorerEndpoints(request.server.swagger());
    const keys = (await pctx.ports.keyAdmin.listOfAccount(session.account.id)).filter((k) => k.revokedAt === null);
    const q = request.query as Record<string, unknown>;
    const wanted = typeof q.key === 'string' ? q.key : '';
    if (keys.length === 0) {
      const body = html`<p>
        You have no active key. <a href="/portal/keys">Create one</a>, then come back to try it.
      </p>`;
      return sendPage(pctx, reply, { title: 'Explorer', nav: 'explorer', session, body });
    }
    const keyOptions = keys.map(
      (k) => html`<option value="${k.id}" ${k.id === wanted ? html` selected` : ''}>${k.name} (${k.id})</option>`,
    );
    const first = endpoints.findIndex((e) => e.path === '/v1/events');
    const endpointOptions = endpoints.map(
      (e, i) =>
        html`<option value="${i}" ${i === first ? html` selected` : ''}>
          GET ${e.path}${e.summary === '' ? '' : ` · ${e.summary}`}
        </option>`,
    );
    const body = html` <p class="lead">
        Send a request with one of your keys and read the answer. The request goes from this browser straight to the API
        and counts in the key's usage like any other.
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
          The secret was shown once, when you created the key. It stays in this browser tab: it is never sent to the
          portal.
        </p>
        <label for="ex-endpoint">Endpoint</label>
        <select id="ex-endpoint" name="endpoint">
          ${endpointOptions}
        </select>
        <div id="ex-params" class="params" aria-live="off"></div>
        <p class="request-line">Request: <code id="ex-url"></code></p>
        <button type="submit">Send request</button>
      </form>
      <section class="card" aria-labelledby="ex-result-title">
        <h2 id="ex-result-title">Response</h2>
        <p id="ex-status" role="status" aria-live="polite">No request sent yet.</p>
        <dl id="ex-headers" class="headers"></dl>
        <pre id="ex-body" class="json" tabindex="0" aria-label="Response body"><code></code></pre>
      </section>
      <script type="application/json" id="explorer-endpoints">
        ${jsonData(endpoints)}
      </script>`;
    return sendPage(pctx, reply, { title: 'Explorer', nav: 'explorer', session, body });
  });
}
