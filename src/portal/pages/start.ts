// The getting-started page: first requests with curl against this service's own address, limits, and where the reference is.
import type { FastifyInstance } from 'fastify';
import { baseUrlOf } from '../../api/base-url.js';
import { sendPage, type PortalContext } from '../context.js';
import { parseCookies, SESSION_COOKIE } from '../cookies.js';
import { html, type SafeHtml } from '../html.js';

const fmt = (n: number | null, none: string): string => (n === null ? none : n.toLocaleString('en-US'));

/** Shell snippets with copy buttons (a button copies its code element's text), numbered within one page. */
function snippets(): (label: string, code: string) => SafeHtml {
  let n = 0;
  return (label, code) => {
    const id = `snippet-${++n}`;
    return html`<div class="snippet">
      <div class="snippet-head">
        <span>${label}</span><button type="button" data-copy="${id}" aria-label="Copy: ${label}">Copy</button>
      </div>
      <pre><code id="${id}">${code}</code></pre>
      <p class="copy-status" data-copy-status="${id}" role="status" aria-live="polite"></p>
    </div>`;
  };
}

export function startPages(app: FastifyInstance, pctx: PortalContext): void {
  app.get('/start', async (request, reply) => {
    const session = await pctx.sessions.resolve(parseCookies(request.headers.cookie).get(SESSION_COOKIE));
    const base = baseUrlOf(request, pctx.ports.site);
    const h = '-H "X-API-Key: $SDS_KEY"';
    const snippet = snippets();
    const plans = pctx.ports.plans.all().map(
      (p) =>
        html`<tr>
          <th scope="row">${p.name}</th>
          <td>${fmt(p.perMonth, 'no quota')}</td>
          <td>${fmt(p.perSecond, 'no limit')}</td>
        </tr>`,
    );
    const body = html` <ol class="steps">
      <li>
        <h2>Get a key</h2>
        <p>
          ${session === null ? html`<a href="/portal">Create an account</a>, then create a key` : html`Create a key on the <a href="/portal/keys">keys page</a>`}.
          Its secret is shown once: copy it then. Send it with every request in the <code>X-API-Key</code> header.
        </p>
        ${snippet('Keep it in your shell', "export SDS_KEY='paste-your-key-here'")}
      </li>
      <li>
        <h2>Make your first requests</h2>
        <p>The service answers at <code>${base}</code>. Every answer is JSON.</p>
        ${snippet('Is the service up? (no key needed)', `curl -s "${base}/v1/status"`)}
        ${snippet('Sports and leagues', `curl -s ${h} "${base}/v1/sports"\ncurl -s ${h} "${base}/v1/leagues"`)}
        ${snippet('Live events, then the next 24 hours', `curl -s ${h} "${base}/v1/events?status=live&limit=5"\ncurl -s ${h} "${base}/v1/events?starts_within=24h"`)}
        ${snippet('Odds of one event, in american format', `curl -s ${h} "${base}/v1/events/EVENT_ID/odds?odds_format=american"`)}
        ${snippet('Settlements: the newest first', `curl -s ${h} "${base}/v1/settlements?limit=50"`)}
        ${snippet('Your usage this month', `curl -s ${h} "${base}/v1/usage"\ncurl -s ${h} "${base}/v1/usage/warnings"`)}
        <p>
          Or try requests in your browser with the
          <a href="/portal/explorer">explorer</a>${session === null ? ' (after signing in)' : ''}.
        </p>
      </li>
      <li>
        <h2>Mind the limits</h2>
        <p>
          Each key has a plan: a monthly quota (UTC calendar month) and a per-second rate. Every request with a key
          counts, except <code>/v1/health</code>, <code>/v1/status</code> and <code>/v1/usage/warnings</code>. Over a
          limit the answer is <code>429</code> with <code>Retry-After</code>; every counted answer carries
          <code>X-RateLimit-Limit</code>, <code>X-RateLimit-Remaining</code> and <code>X-RateLimit-Reset</code>.
        </p>
        <div class="table-wrap">
          <table>
            <caption>
              Plans of this service
            </caption>
            <thead>
              <tr>
                <th scope="col">Plan</th>
                <th scope="col">Requests per month</th>
                <th scope="col">Requests per second</th>
              </tr>
            </thead>
            <tbody>
              ${plans}
            </tbody>
          </table>
        </div>
        ${snippet('See the limit headers', `curl -si ${h} "${base}/v1/sports" | grep -i '^x-ratelimit'`)}
      </li>
      <li>
        <h2>Read the reference</h2>
        <p>
          Every endpoint, parameter and answer is in the <a href="/docs">API reference</a> (also as an
          <a href="/openapi.json">OpenAPI document</a> for code generators). Errors are
          <code>{"error": "…", "message": "…"}</code> with a message naming the offending parameter.
        </p>
      </li>
    </ol>`;
    return sendPage(pctx, reply, { title: 'Getting started', nav: 'start', session, body });
  });
}
