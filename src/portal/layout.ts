// The portal's page shell: head, header with navigation and sign-out, main landmark, footer; and the error page.
import { html, type SafeHtml } from './html.js';
import type { SignedIn } from './sessions.js';

export type NavId = 'home' | 'keys' | 'usage' | 'webhooks' | 'explorer' | 'console' | 'start';

/** Versioned URLs of the static files (a new build changes the version, so they can be cached long). */
export interface AssetUrls {
  css: string;
  js: string;
  chart: string;
  /** The live console's stylesheet, its shared script and one script per page. */
  console: { css: string; common: string; board: string; event: string; settlements: string };
}

export interface PageOptions {
  title: string;
  nav: NavId | null;
  session: SignedIn | null;
  body: SafeHtml;
  assets: AssetUrls;
  /** Load Chart.js (the usage page, the console's event page). */
  chart?: boolean;
  /** A live console page: its stylesheet, the shared console script, then this page's script. */
  console?: 'board' | 'event' | 'settlements';
}

const SIGNED_IN_NAV: Array<[NavId, string, string]> = [
  ['keys', 'Keys', '/portal/keys'],
  ['usage', 'Usage', '/portal/usage'],
  ['webhooks', 'Webhooks', '/portal/webhooks'],
  ['explorer', 'Explorer', '/portal/explorer'],
  ['console', 'Live console', '/portal/console'],
  ['start', 'Getting started', '/portal/start'],
];

const SIGNED_OUT_NAV: Array<[NavId, string, string]> = [
  ['home', 'Sign in', '/portal'],
  ['start', 'Getting started', '/portal/start'],
];

/** `<time>` with the machine-readable instant and a short UTC reading. */
export function timeTag(ms: number | null, empty = 'never'): SafeHtml {
  if (ms === null) return html`<span class="muted">${empty}</span>`;
  const iso = new Date(ms).toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC</time>`;
}

export function renderPage(o: PageOptions): string {
  const items = o.session === null ? SIGNED_OUT_NAV : SIGNED_IN_NAV;
  const links = items.map(
    ([id, label, href]) =>
      html`<li><a href="${href}" ${id === o.nav ? html` aria-current="page"` : ''}>${label}</a></li>`,
  );
  const account =
    o.session === null
      ? ''
      : html`<form class="sign-out" method="post" action="/portal/sign-out">
          <span class="who" title="Signed in as ${o.session.account.email}">${o.session.account.email}</span>
          <input type="hidden" name="_csrf" value="${o.session.csrf}" />
          <button type="submit" class="button-link">Sign out</button>
        </form>`;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <title>${o.title} · Sports Data developer portal</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="${o.assets.css}" />
        ${o.console !== undefined ? html`<link rel="stylesheet" href="${o.assets.console.css}" />` : ''}
        ${o.chart === true ? html`<script src="${o.assets.chart}" defer></script>` : ''}
        <script src="${o.assets.js}" defer></script>
        ${
          o.console !== undefined
            ? html`<script src="${o.assets.console.common}" defer></script>
                <script src="${o.assets.console[o.console]}" defer></script>`
            : ''
        }
      </head>
      <body>
        <a class="skip-link" href="#main">Skip to content</a>
        <header class="site-header">
          <div class="bar">
            <a class="brand" href="/portal">Sports Data <span>developer portal</span></a>
            ${account}
          </div>
          <nav aria-label="Portal">
            <ul>
              ${links}
              <li><a href="/docs">API reference</a></li>
            </ul>
          </nav>
        </header>
        <main id="main" tabindex="-1">
          <h1>${o.title}</h1>
          ${o.body}
        </main>
        <footer class="site-footer">
          <p>
            Send your key in the <code>X-API-Key</code> header. <a href="/docs">API reference</a> ·
            <a href="/openapi.json">OpenAPI document</a> · <a href="/v1/status">Service status</a>
          </p>
        </footer>
      </body>
    </html> `.text;
}

export function renderErrorPage(o: {
  status: number;
  title: string;
  message: string;
  session: SignedIn | null;
  assets: AssetUrls;
}): string {
  const back =
    o.session === null
      ? html`<a href="/portal">Go to the sign-in page</a>`
      : html`<a href="/portal/keys">Go to your keys</a>`;
  return renderPage({
    title: o.title,
    nav: null,
    session: o.session,
    assets: o.assets,
    body: html`<div class="card" role="alert">
      <p class="status-code">Error ${o.status}</p>
      <p>${o.message}</p>
      <p>${back}</p>
    </div>`,
  });
}
