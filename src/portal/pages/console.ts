// The live console: server-rendered shells of the live board, an event's page and the settlement feed; the browser fills them from the public API and its stream.
import type { FastifyInstance } from 'fastify';
import { sendPage, sessionOf, type PortalContext } from '../context.js';
import { html, jsonData, type SafeHtml } from '../html.js';
import type { SignedIn } from '../sessions.js';

/** The odds formats a console page offers (decisions.md, "Odds formats"). */
export const CONSOLE_ODDS_FORMATS = ['decimal', 'american', 'fractional'] as const;

/** What the console's scripts are told by the page (read from a JSON data block: no inline script). */
export interface ConsoleConfig {
  page: 'board' | 'event' | 'settlements';
  /** The event of an event page. */
  eventId?: string;
  /** The board: kick-offs within this many hours are listed, and games that ended within this many minutes. */
  soonHours: number;
  endedMinutes: number;
  /** The stream's event names the console listens to (EventSource delivers a named event only to its listener). */
  events: readonly string[];
}

const STREAM_EVENTS = [
  'odds',
  'markets',
  'score',
  'status',
  'result',
  'settlement',
  'heartbeat',
  'snapshot_required',
  'close',
];

const SOON_HOURS = 3;
const ENDED_MINUTES = 30;

/** The key, its secret (kept in the tab as the explorer keeps it) and the odds format: every console page starts with it. */
function keyBar(keys: Array<{ id: string; name: string }>, wanted: string, format: string): SafeHtml {
  const keyOptions = keys.map(
    (k) => html`<option value="${k.id}" ${k.id === wanted ? html` selected` : ''}>${k.name} (${k.id})</option>`,
  );
  const formats = CONSOLE_ODDS_FORMATS.map(
    (f) => html`<option value="${f}" ${f === format ? html` selected` : ''}>${f}</option>`,
  );
  return html`<form id="console-key" class="card console-bar" data-console-key>
    <div class="console-bar-fields">
      <div>
        <label for="cs-key">Key</label>
        <select id="cs-key" name="key">
          ${keyOptions}
        </select>
      </div>
      <div>
        <label for="cs-secret">Secret of this key</label>
        <input
          id="cs-secret"
          name="secret"
          type="password"
          autocomplete="off"
          spellcheck="false"
          required
          aria-describedby="cs-secret-hint"
        />
      </div>
      <div>
        <label for="cs-format">Odds format</label>
        <select id="cs-format" name="odds_format">
          ${formats}
        </select>
      </div>
      <div class="console-bar-go">
        <button type="submit" id="cs-connect">Connect</button>
      </div>
    </div>
    <p class="hint" id="cs-secret-hint">
      The console calls the public API and its stream with this key, as any client would: its requests count in the
      key's usage. The secret stays in this browser tab, as in the explorer.
    </p>
    <p id="cs-status" class="console-status" role="status" aria-live="polite" data-state="idle">
      Paste the key's secret and connect.
    </p>
  </form>`;
}

function consoleNav(current: ConsoleConfig['page']): SafeHtml {
  const items: Array<[ConsoleConfig['page'], string, string]> = [
    ['board', 'Live board', '/portal/console'],
    ['settlements', 'Settlements', '/portal/console/settlements'],
  ];
  return html`<nav class="console-nav" aria-label="Console">
    <ul>
      ${items.map(
        ([id, label, href]) =>
          html`<li><a href="${href}" ${id === current ? html` aria-current="page"` : ''}>${label}</a></li>`,
      )}
    </ul>
  </nav>`;
}

function boardBody(): SafeHtml {
  return html`<div class="console-filters" role="group" aria-label="Filters">
      <div>
        <label for="board-sport">Sport</label>
        <select id="board-sport">
          <option value="">All sports</option>
        </select>
      </div>
      <div>
        <label for="board-league">League</label>
        <select id="board-league">
          <option value="">All leagues</option>
        </select>
      </div>
    </div>
    <section class="console-section" aria-labelledby="board-live-title">
      <h2 id="board-live-title">Live now <span class="count" id="board-live-count"></span></h2>
      <div id="board-live" class="board-groups"><p class="muted">Not connected yet.</p></div>
    </section>
    <section class="console-section" aria-labelledby="board-soon-title">
      <h2 id="board-soon-title">
        Starting in the next ${SOON_HOURS} hours <span class="count" id="board-soon-count"></span>
      </h2>
      <div id="board-soon" class="board-groups"></div>
    </section>
    <section class="console-section" aria-labelledby="board-ended-title">
      <h2 id="board-ended-title">
        Ended in the last ${ENDED_MINUTES} minutes <span class="count" id="board-ended-count"></span>
      </h2>
      <div id="board-ended" class="board-groups"></div>
    </section>`;
}

function eventBody(): SafeHtml {
  return html`<p><a href="/portal/console">← Live board</a></p>
    <section id="ev-header" class="card ev-header" aria-labelledby="ev-title" aria-busy="true">
      <h2 id="ev-title" class="ev-title">Loading the event…</h2>
      <div class="ev-teams">
        <div class="ev-team">
          <img id="ev-home-logo" alt="" width="48" height="48" hidden /><span id="ev-home"></span>
        </div>
        <div class="ev-score" id="ev-score"></div>
        <div class="ev-team ev-away">
          <img id="ev-away-logo" alt="" width="48" height="48" hidden /><span id="ev-away"></span>
        </div>
      </div>
      <p class="ev-meta">
        <span id="ev-status" class="badge"></span> <span id="ev-clock"></span>
        <span id="ev-lock" class="lock-badge" hidden></span> <span id="ev-league" class="muted"></span>
        <span id="ev-start" class="muted"></span>
      </p>
    </section>
    <section id="ev-result" class="card" aria-labelledby="ev-result-title" hidden>
      <h2 id="ev-result-title">Result and settlement</h2>
      <p id="ev-result-text"></p>
      <div class="settle-progress">
        <progress id="ev-settle-bar" max="1" value="0" aria-labelledby="ev-settle-text"></progress>
        <p id="ev-settle-text" aria-live="polite">Settlement has not started.</p>
      </div>
      <div id="ev-settled-groups" class="market-groups"></div>
    </section>
    <div class="columns">
      <section id="ev-board" class="card" aria-labelledby="ev-board-title">
        <h2 id="ev-board-title">Scoreboard</h2>
        <div id="ev-scoreboard" class="table-wrap"><p class="muted">No scoreboard before the start.</p></div>
      </section>
      <section id="ev-sport" class="card" aria-labelledby="ev-sport-title">
        <h2 id="ev-sport-title">Live data</h2>
        <dl id="ev-sport-data" class="sport-data"></dl>
      </section>
    </div>
    <section id="ev-chart-card" class="card" aria-labelledby="ev-chart-title">
      <h2 id="ev-chart-title">Price history</h2>
      <label for="ev-chart-market">Market</label>
      <select id="ev-chart-market"></select>
      <figure class="chart">
        <div class="chart-box">
          <canvas id="ev-chart" role="img" aria-label="Price history of the chosen market"></canvas>
        </div>
        <figcaption id="ev-chart-caption">
          Decimal prices over time: the history from <code>GET /v1/events/{id}/odds/history</code>, then the stream's
          live changes. Triangles mark opening prices, diamonds closing prices.
        </figcaption>
      </figure>
    </section>
    <section id="ev-markets-card" class="card" aria-labelledby="ev-markets-title">
      <h2 id="ev-markets-title">Markets <span class="count" id="ev-markets-count"></span></h2>
      <p class="hint">Grouped by family. Open a group to see its prices; they update as the stream moves them.</p>
      <div id="ev-markets" class="market-groups"></div>
    </section>`;
}

function settlementsBody(): SafeHtml {
  return html`<div class="stats" role="group" aria-label="Settlement feed at a glance">
      <p><span class="stat" id="st-entries">–</span> entries</p>
      <p><span class="stat" id="st-full">–</span> fully settled</p>
      <p><span class="stat" id="st-resolved">–</span> markets resolved</p>
      <p><span class="stat" id="st-pending">–</span> markets pending</p>
    </div>
    <section class="console-section" aria-labelledby="st-list-title">
      <h2 id="st-list-title">Settlement feed, newest first</h2>
      <p class="hint">
        <code>GET /v1/settlements</code>, then every <code>settlement</code> and <code>result</code> event of the stream
        as markets resolve.
      </p>
      <ol id="st-list" class="settle-list"></ol>
    </section>`;
}

const TITLES: Record<ConsoleConfig['page'], string> = {
  board: 'Live console',
  event: 'Live console: event',
  settlements: 'Live console: settlements',
};

async function consolePage(
  pctx: PortalContext,
  session: SignedIn,
  query: Record<string, unknown>,
  config: ConsoleConfig,
  body: SafeHtml,
): Promise<{ title: string; body: SafeHtml; chart: boolean }> {
  const keys = (await pctx.ports.keyAdmin.listOfAccount(session.account.id)).filter((k) => k.revokedAt === null);
  const title = TITLES[config.page];
  if (keys.length === 0) {
    return {
      title,
      chart: false,
      body: html`<p>
        You have no active key. <a href="/portal/keys">Create one</a>, then come back to watch the games.
      </p>`,
    };
  }
  const wanted = typeof query.key === 'string' ? query.key : '';
  const format =
    typeof query.odds_format === 'string' && (CONSOLE_ODDS_FORMATS as readonly string[]).includes(query.odds_format)
      ? query.odds_format
      : 'decimal';
  return {
    title,
    chart: config.page === 'event',
    body: html`${consoleNav(config.page)}
      <noscript><p class="form-error">The live console needs JavaScript.</p></noscript>
      ${keyBar(keys, wanted, format)} ${body}
      <script type="application/json" id="console-config">
        ${jsonData(config)}
      </script>`,
  };
}

export function consolePages(app: FastifyInstance, pctx: PortalContext): void {
  const base = { soonHours: SOON_HOURS, endedMinutes: ENDED_MINUTES, events: STREAM_EVENTS };

  app.get('/console', async (request, reply) => {
    const session = sessionOf(request);
    const page = await consolePage(
      pctx,
      session,
      request.query as Record<string, unknown>,
      { page: 'board', ...base },
      boardBody(),
    );
    return sendPage(pctx, reply, { ...page, nav: 'console', session, console: 'board' });
  });

  app.get('/console/settlements', async (request, reply) => {
    const session = sessionOf(request);
    const page = await consolePage(
      pctx,
      session,
      request.query as Record<string, unknown>,
      { page: 'settlements', ...base },
      settlementsBody(),
    );
    return sendPage(pctx, reply, { ...page, nav: 'console', session, console: 'settlements' });
  });

  app.get('/console/events/:id', async (request, reply) => {
    const session = sessionOf(request);
    const { id } = request.params as { id: string };
    const page = await consolePage(
      pctx,
      session,
      request.query as Record<string, unknown>,
      { page: 'event', eventId: id, ...base },
      eventBody(),
    );
    return sendPage(pctx, reply, { ...page, nav: 'console', session, console: 'event' });
  });
}
