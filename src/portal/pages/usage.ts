// The usage page: per key, a chart of the month's daily requests (Chart.js, with the same numbers as a table), the quota bar and active warnings.
import type { FastifyInstance } from 'fastify';
import { keyUsage, type UsageBody } from '../../api/quota/report.js';
import type { UsageWarning } from '../../domain/quota.js';
import type { ApiKeyRecord } from '../../store/store.js';
import { sendPage, sessionOf, type PortalContext } from '../context.js';
import { html, type SafeHtml } from '../html.js';
import { timeTag } from '../layout.js';
import { ownedKey } from './keys.js';

const fmt = (n: number): string => n.toLocaleString('en-US');

function keyPicker(keys: ApiKeyRecord[], selected: ApiKeyRecord): SafeHtml {
  const options = keys.map(
    (k) =>
      html`<option value="${k.id}" ${k.id === selected.id ? html` selected` : ''}>
        ${k.name}${k.revokedAt === null ? '' : ' (revoked)'}
      </option>`,
  );
  return html`<form method="get" action="/portal/usage" class="inline-form picker" data-auto-submit>
    <label for="usage-key">Key</label>
    <select id="usage-key" name="key">
      ${options}
    </select>
    <button type="submit">Show</button>
  </form>`;
}

function quotaSection(usage: UsageBody, monthEnd: number): SafeHtml {
  const { current, limits } = usage;
  const rate = limits.per_second === null ? 'no per-second limit' : `${fmt(limits.per_second)} requests per second`;
  if (limits.per_month === null) {
    return html`<p id="quota-text">
      No monthly quota on the <strong>${usage.plan}</strong> plan (${rate}):
      <span data-this-month="${current.this_month}">${fmt(current.this_month)}</span> requests this month.
    </p>`;
  }
  return html`<div class="quota">
    <progress
      id="quota-bar"
      max="${limits.per_month}"
      value="${Math.min(current.this_month, limits.per_month)}"
      aria-describedby="quota-text"
    >
      ${current.month_percent}%
    </progress>
    <p id="quota-text">
      <span data-this-month="${current.this_month}">${fmt(current.this_month)}</span> of ${fmt(limits.per_month)}
      requests used this month (${current.month_percent}%), ${fmt(current.month_remaining ?? 0)} left. Plan
      <strong>${usage.plan}</strong>, ${rate}. The quota resets ${timeTag(monthEnd)}.
    </p>
  </div>`;
}

function warningsSection(warnings: UsageWarning[]): SafeHtml {
  if (warnings.length === 0) return html`<p class="muted" id="no-warnings">No active warnings.</p>`;
  return html`<ul class="warnings">
    ${warnings.map(
      (w) => html`<li class="warning warning-${w.level}"><span class="badge">${w.level}</span> ${w.message}</li>`,
    )}
  </ul>`;
}

function chartSection(usage: UsageBody, now: number): SafeHtml {
  const today = new Date(now);
  const monthName = today.toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const daysInMonth = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 0)).getUTCDate();
  const total = usage.current.this_month;
  const rows = usage.daily.map(
    (d) =>
      html`<tr data-date="${d.date}" data-requests="${d.requests}" data-errors="${d.errors}">
        <th scope="row">${d.date}</th>
        <td>${fmt(d.requests)}</td>
        <td>${fmt(d.errors)}</td>
      </tr>`,
  );
  return html`<figure class="chart" data-days-in-month="${daysInMonth}" data-month-total="${total}">
      <div class="chart-box">
        <canvas
          id="usage-chart"
          role="img"
          aria-label="Bar chart of daily requests in ${monthName}: ${fmt(total)} in total. The table below has the same numbers."
        ></canvas>
      </div>
      <figcaption>Daily requests, ${monthName} (UTC days). Errors are the requests answered 4xx or 5xx.</figcaption>
    </figure>
    <details class="data-table">
      <summary>Show the numbers as a table</summary>
      <div class="table-wrap">
        <table id="usage-table">
          <caption class="visually-hidden">
            Requests per day, ${monthName}
          </caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Requests</th>
              <th scope="col">Errors</th>
            </tr>
          </thead>
          <tbody>
            ${rows}
          </tbody>
        </table>
      </div>
    </details>`;
}

export function usagePages(app: FastifyInstance, pctx: PortalContext): void {
  app.get('/usage', async (request, reply) => {
    const session = sessionOf(request);
    const keys = await pctx.ports.keyAdmin.listOfAccount(session.account.id);
    const q = request.query as Record<string, unknown>;
    let selected: ApiKeyRecord | undefined;
    if (typeof q.key === 'string' && q.key !== '') selected = await ownedKey(pctx, session, q.key);
    else selected = keys.find((k) => k.revokedAt === null) ?? keys[0];
    if (selected === undefined) {
      const body = html`<p>
        No keys yet: <a href="/portal/keys">create one</a>, make a few requests with it, and its usage shows here.
      </p>`;
      return sendPage(pctx, reply, { title: 'Usage', nav: 'usage', session, body });
    }
    const now = pctx.ports.now();
    const { usage, warnings } = await keyUsage(pctx.ports, selected);
    const d = new Date(now);
    const monthEnd = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    const body = html` ${keyPicker(keys, selected)}
      <div class="stats" aria-label="Key “${selected.name}” at a glance">
        <p><span class="stat" data-today="${usage.current.today}">${fmt(usage.current.today)}</span> requests today</p>
        <p><span class="stat">${fmt(usage.current.this_month)}</span> this month</p>
        <p><span class="stat">${fmt(usage.current.errors_today)}</span> errors today</p>
      </div>
      <section class="card" aria-labelledby="quota-title">
        <h2 id="quota-title">Monthly quota</h2>
        ${quotaSection(usage, monthEnd)}
      </section>
      <section class="card" aria-labelledby="warnings-title">
        <h2 id="warnings-title">Active warnings</h2>
        ${warningsSection(warnings)}
      </section>
      <section class="card" aria-labelledby="chart-title">
        <h2 id="chart-title">Daily requests</h2>
        ${chartSection(usage, now)}
        <p>
          <a href="/portal/usage?key=${selected.id}">Refresh</a> · Counts update with every request; the same numbers
          are at <code>GET /v1/usage</code>.
        </p>
      </section>`;
    return sendPage(pctx, reply, { title: 'Usage', nav: 'usage', session, body, chart: true });
  });
}
