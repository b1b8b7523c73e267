// The webhooks page: per key, its subscriptions (create with the secret shown once, enable/disable, rotate, delete) and each one's delivery log with replay and a test event.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { WebhookAdmin } from '../../api/webhook-admin.js';
import { ServiceError } from '../../domain/errors.js';
import { WEBHOOK_TYPES, type WebhookDelivery, type WebhookSubscription } from '../../domain/webhooks.js';
import type { ApiKeyRecord } from '../../store/store.js';
import { field, sendPage, sessionOf, type PortalContext } from '../context.js';
import { html, type SafeHtml } from '../html.js';
import { timeTag } from '../layout.js';
import { PortalError } from '../security.js';
import type { SignedIn } from '../sessions.js';
import { ownedKey } from './keys.js';

const LOG_PAGE = 50;

function adminOf(pctx: PortalContext): WebhookAdmin {
  const admin = pctx.ports.webhooks;
  if (admin === undefined) throw new PortalError(404, 'Not found', 'Webhooks are not offered here.');
  return admin;
}

/** The id in a path, bounded (never a store lookup of a megabyte). */
const idParam = (params: unknown, name: string): string =>
  String((params as Record<string, string>)[name] ?? '').slice(0, 100);

function stateBadge(sub: WebhookSubscription): SafeHtml {
  if (sub.enabled) {
    return sub.failingSince === null
      ? html`<span class="badge badge-ok">Enabled</span>`
      : html`<span class="badge badge-warn">Failing</span> since ${timeTag(sub.failingSince)}`;
  }
  return sub.disabledReason === 'failing'
    ? html`<span class="badge badge-off">Disabled: failing too long</span>`
    : html`<span class="badge badge-off">Disabled</span>`;
}

function secretPanel(title: string, sub: WebhookSubscription): SafeHtml {
  return html`<section class="card new-key" aria-labelledby="secret-title">
    <h2 id="secret-title">${title}</h2>
    <p>
      <strong>Copy it now: it is shown only this once.</strong> Verify each delivery's
      <code>webhook-signature</code> with it (the SDK's <code>verifyWebhook</code>).
    </p>
    <div class="copy-row">
      <label class="visually-hidden" for="new-secret">Signing secret of ${sub.url}</label>
      <input
        id="new-secret"
        class="secret"
        readonly
        value="${sub.secret}"
        data-webhook-id="${sub.id}"
        spellcheck="false"
        autocomplete="off"
      />
      <button type="button" data-copy="new-secret">Copy</button>
    </div>
    <p class="copy-status" data-copy-status="new-secret" role="status" aria-live="polite"></p>
  </section>`;
}

function hookRow(key: ApiKeyRecord, sub: WebhookSubscription, csrf: string): SafeHtml {
  const base = `/portal/webhooks/${key.id}/${sub.id}`;
  const filters = [
    sub.sport === null ? '' : `sport ${sub.sport}`,
    sub.league === null ? '' : `league ${sub.league}`,
    sub.eventIds === null ? '' : `events ${sub.eventIds.join(', ')}`,
  ]
    .filter((s) => s !== '')
    .join('; ');
  const post = (action: string, label: string, extra: SafeHtml | string = '', cls = '') =>
    html`<form method="post" action="${base}/${action}" class="inline-action">
      <input type="hidden" name="_csrf" value="${csrf}" />${extra}
      <button type="submit" ${cls === '' ? '' : html` class="${cls}"`}>${label}</button>
    </form>`;
  return html`<tr data-webhook-id="${sub.id}">
    <th scope="row" data-label="URL"><code>${sub.url}</code></th>
    <td data-label="Types">${sub.types.join(', ')}</td>
    <td data-label="Filters">${filters === '' ? html`<span class="muted">every event</span>` : filters}</td>
    <td data-label="State">${stateBadge(sub)}</td>
    <td data-label="Actions" class="actions">
      <a href="${base}">Deliveries</a>
      ${
        sub.enabled
          ? post('enabled', 'Disable', html`<input type="hidden" name="enabled" value="false" />`)
          : post('enabled', 'Enable', html`<input type="hidden" name="enabled" value="true" />`)
      }
      ${post('rotate', 'Rotate secret')}
      <details class="rename">
        <summary>Delete…</summary>
        <p>Its queue and delivery log go with it.</p>
        ${post('delete', 'Delete this webhook', '', 'danger-button')}
      </details>
    </td>
  </tr>`;
}

interface ListState {
  created?: WebhookSubscription;
  rotated?: WebhookSubscription;
  notice?: string;
  error?: string;
  form?: Record<string, string>;
}

function keyPicker(keys: ApiKeyRecord[], selected: ApiKeyRecord): SafeHtml {
  return html`<form method="get" action="/portal/webhooks" class="inline-form picker" data-auto-submit>
    <label for="webhook-key">Key</label>
    <select id="webhook-key" name="key">
      ${keys.map((k) => html`<option value="${k.id}" ${k.id === selected.id ? html` selected` : ''}>${k.name}</option>`)}
    </select>
    <button type="submit">Show</button>
  </form>`;
}

async function listPage(
  pctx: PortalContext,
  session: SignedIn,
  key: ApiKeyRecord,
  state: ListState,
): Promise<SafeHtml> {
  const admin = adminOf(pctx);
  const keys = (await pctx.ports.keyAdmin.listOfAccount(session.account.id)).filter((k) => k.revokedAt === null);
  const subs = await admin.list(key);
  const limit = pctx.ports.plans.of(key.plan).webhooks;
  const form = state.form ?? {};
  const err = state.error;
  const table =
    subs.length === 0
      ? html`<p id="no-webhooks">Key “${key.name}” has no webhooks yet. Create one below.</p>`
      : html`<div class="table-wrap">
          <table class="webhooks responsive">
            <caption class="visually-hidden">
              Webhooks of key ${key.name}
            </caption>
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Types</th>
                <th scope="col">Filters</th>
                <th scope="col">State</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              ${subs.map((s) => hookRow(key, s, session.csrf))}
            </tbody>
          </table>
        </div>`;
  const checked = (t: string) => (form[`type_${t}`] === 'on' ? html` checked` : '');
  return html`${state.notice === undefined ? '' : html`<p class="notice" role="status">${state.notice}</p>`}
    ${state.created === undefined ? '' : secretPanel('Your new webhook’s signing secret', state.created)}
    ${state.rotated === undefined ? '' : secretPanel('The new signing secret', state.rotated)}
    ${keys.length > 1 ? keyPicker(keys, key) : ''}
    <section aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Webhooks of key “${key.name}”</h2>
      ${table}
    </section>
    <section class="card" aria-labelledby="create-title">
      <h2 id="create-title">Create a webhook</h2>
      <form method="post" action="/portal/webhooks/${key.id}" class="stacked-form">
        <input type="hidden" name="_csrf" value="${session.csrf}" />
        ${err === undefined ? '' : html`<p class="form-error" id="create-error" role="alert">${err}</p>`}
        <label for="webhook-url">URL (https)</label>
        <input
          id="webhook-url"
          name="url"
          type="url"
          required
          value="${form.url ?? ''}"
          ${err === undefined ? '' : html` aria-invalid="true" aria-describedby="create-error"`}
        />
        <fieldset>
          <legend>Tell me about</legend>
          ${WEBHOOK_TYPES.map(
            (t) =>
              html`<label class="check"
                ><input type="checkbox" name="type_${t}" ${checked(t)} /> <code>${t}</code></label
              >`,
          )}
        </fieldset>
        <label for="webhook-sport">Sport (optional)</label>
        <input id="webhook-sport" name="sport" value="${form.sport ?? ''}" />
        <label for="webhook-events">Event ids, comma-separated (optional; needed for odds)</label>
        <input id="webhook-events" name="event_ids" value="${form.event_ids ?? ''}" />
        <p class="hint">
          ${subs.length} of ${limit === null ? 'unlimited' : limit} webhooks of the ${key.plan} plan used. Deliveries
          are signed (Standard Webhooks) and retried until your server answers 2xx.
        </p>
        <button type="submit">Create webhook</button>
      </form>
    </section>`;
}

function deliveryRow(key: ApiKeyRecord, sub: WebhookSubscription, delivery: WebhookDelivery, csrf: string): SafeHtml {
  return html`<tr data-delivery-id="${delivery.id}">
    <th scope="row" data-label="Id"><code>${delivery.id}</code></th>
    <td data-label="Type">${delivery.type}</td>
    <td data-label="Made">${timeTag(delivery.createdAt)}</td>
    <td data-label="Status">
      ${
        delivery.status === 'delivered'
          ? html`<span class="badge badge-ok">delivered</span>`
          : html`<span class="badge badge-warn">pending</span>`
      }
    </td>
    <td data-label="Attempts">${delivery.attempts}</td>
    <td data-label="Last answer">
      ${delivery.lastStatus === null ? html`<span class="muted">none</span>` : delivery.lastStatus}${
        delivery.lastError === null ? '' : html` <span class="muted">${delivery.lastError}</span>`
      }
    </td>
    <td data-label="Latency">${delivery.lastLatencyMs === null ? '' : `${delivery.lastLatencyMs} ms`}</td>
    <td data-label="Actions" class="actions">
      <form method="post" action="/portal/webhooks/${key.id}/${sub.id}/replay" class="inline-action">
        <input type="hidden" name="_csrf" value="${csrf}" />
        <input type="hidden" name="delivery_id" value="${delivery.id}" />
        <button type="submit">Send again</button>
      </form>
    </td>
  </tr>`;
}

async function logPage(
  pctx: PortalContext,
  session: SignedIn,
  key: ApiKeyRecord,
  sub: WebhookSubscription,
  notice: string | undefined,
): Promise<SafeHtml> {
  const deliveries = await adminOf(pctx).deliveries(key, sub.id, null, LOG_PAGE);
  const base = `/portal/webhooks/${key.id}/${sub.id}`;
  const table =
    deliveries.length === 0
      ? html`<p id="no-deliveries">No deliveries yet. Send a test event to see one.</p>`
      : html`<div class="table-wrap">
          <table class="deliveries responsive">
            <caption class="visually-hidden">
              Deliveries to ${sub.url}, newest first
            </caption>
            <thead>
              <tr>
                <th scope="col">Id</th>
                <th scope="col">Type</th>
                <th scope="col">Made</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last answer</th>
                <th scope="col">Latency</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              ${deliveries.map((d) => deliveryRow(key, sub, d, session.csrf))}
            </tbody>
          </table>
        </div>`;
  return html`${notice === undefined ? '' : html`<p class="notice" role="status">${notice}</p>`}
    <p><a href="/portal/webhooks?key=${key.id}">All webhooks of key “${key.name}”</a></p>
    <section aria-labelledby="log-title">
      <h2 id="log-title">Deliveries to <code>${sub.url}</code></h2>
      <p>${stateBadge(sub)} Types: ${sub.types.join(', ')}. The last ${LOG_PAGE}, newest first.</p>
      <div class="button-row">
        <form method="post" action="${base}/test" class="inline-action">
          <input type="hidden" name="_csrf" value="${session.csrf}" />
          <button type="submit">Send a test event</button>
        </form>
        <form method="post" action="${base}/replay" class="inline-action">
          <input type="hidden" name="_csrf" value="${session.csrf}" />
          <label for="replay-since">Send again everything since (UTC)</label>
          <input id="replay-since" name="since" type="datetime-local" required />
          <button type="submit">Replay</button>
        </form>
      </div>
      ${table}
    </section>`;
}

/** The subscription's form as the API takes it. */
function inputOf(body: unknown): { input: Parameters<WebhookAdmin['create']>[1]; form: Record<string, string> } {
  const form: Record<string, string> = {
    url: field(body, 'url').trim(),
    sport: field(body, 'sport').trim(),
    event_ids: field(body, 'event_ids').trim(),
  };
  const types = WEBHOOK_TYPES.filter((t) => field(body, `type_${t}`) === 'on');
  for (const t of types) form[`type_${t}`] = 'on';
  const eventIds = form
    .event_ids!.split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return {
    form,
    input: {
      url: form.url!,
      types,
      sport: form.sport === '' ? null : form.sport!,
      event_ids: eventIds.length === 0 ? null : eventIds,
    },
  };
}

export function webhookPages(app: FastifyInstance, pctx: PortalContext): void {
  const show = async (reply: FastifyReply, session: SignedIn, key: ApiKeyRecord, state: ListState, status = 200) =>
    sendPage(
      pctx,
      reply,
      { title: 'Webhooks', nav: 'webhooks', session, body: await listPage(pctx, session, key, state) },
      status,
    );

  app.get('/webhooks', async (request, reply) => {
    const session = sessionOf(request);
    const q = request.query as Record<string, unknown>;
    const keys = (await pctx.ports.keyAdmin.listOfAccount(session.account.id)).filter((k) => k.revokedAt === null);
    const wanted = typeof q.key === 'string' ? q.key : keys[0]?.id;
    if (wanted === undefined) {
      const body = html`<p>Webhooks belong to an API key. <a href="/portal/keys">Create a key</a> first.</p>`;
      return sendPage(pctx, reply, { title: 'Webhooks', nav: 'webhooks', session, body });
    }
    const key = await ownedKey(pctx, session, wanted);
    const notice = typeof q.notice === 'string' ? NOTICES[q.notice] : undefined;
    return show(reply, session, key, notice === undefined ? {} : { notice });
  });

  app.post('/webhooks/:keyId', async (request, reply) => {
    const session = sessionOf(request);
    const key = await ownedKey(pctx, session, idParam(request.params, 'keyId'));
    const { input, form } = inputOf(request.body);
    try {
      // Answered here (not redirected): the secret must never travel in a URL or be shown twice.
      const created = await adminOf(pctx).create(key, input);
      return show(reply, session, key, { created });
    } catch (err) {
      if (err instanceof ServiceError && err.code === 'bad_request') {
        return show(reply, session, key, { error: err.message, form }, 400);
      }
      throw err;
    }
  });

  app.get('/webhooks/:keyId/:id', async (request, reply) => {
    const session = sessionOf(request);
    const key = await ownedKey(pctx, session, idParam(request.params, 'keyId'));
    const sub = await adminOf(pctx).get(key, idParam(request.params, 'id'));
    const q = request.query as Record<string, unknown>;
    const notice = typeof q.notice === 'string' ? NOTICES[q.notice] : undefined;
    const body = await logPage(pctx, session, key, sub, notice);
    return sendPage(pctx, reply, { title: 'Webhook deliveries', nav: 'webhooks', session, body });
  });

  app.post('/webhooks/:keyId/:id/enabled', async (request, reply) => {
    const session = sessionOf(request);
    const key = await ownedKey(pctx, session, idParam(request.params, 'keyId'));
    const enabled = field(request.body, 'enabled');
    if (enabled !== 'true' && enabled !== 'false')
      throw new PortalError(400, 'Bad request', 'enabled is true or false.');
    await adminOf(pctx).update(key, idParam(request.params, 'id'), { enabled: enabled === 'true' });
    return reply.redirect(`/portal/webhooks?key=${key.id}&notice=${enabled === 'true' ? 'enabled' : 'disabled'}`, 303);
  });

  app.post('/webhooks/:keyId/:id/rotate', async (request, reply) => {
    const session = sessionOf(request);
    const key = await ownedKey(pctx, session, idParam(request.params, 'keyId'));
    const rotated = await adminOf(pctx).rotateSecret(key, idParam(request.params, 'id'));
    return show(reply, session, key, {
      rotated,
      notice: 'Secret rotated: the old one keeps signing beside it for a while, so switch your server over now.',
    });
  });

  app.post('/webhooks/:keyId/:id/delete', async (request, reply) => {
    const session = sessionOf(request);
    const key = await ownedKey(pctx, session, idParam(request.params, 'keyId'));
    await adminOf(pctx).remove(key, idParam(request.params, 'id'));
    return reply.redirect(`/portal/webhooks?key=${key.id}&notice=deleted`, 303);
  });

  app.post('/webhooks/:keyId/:id/test', async (request, reply) => {
    const session = sessionOf(request);
    const key = await ownedKey(pctx, session, idParam(request.params, 'keyId'));
    const id = idParam(request.params, 'id');
    await adminOf(pctx).sendTest(key, id);
    return reply.redirect(`/portal/webhooks/${key.id}/${id}?notice=test`, 303);
  });

  app.post('/webhooks/:keyId/:id/replay', async (request, reply) => {
    const session = sessionOf(request);
    const key = await ownedKey(pctx, session, idParam(request.params, 'keyId'));
    const id = idParam(request.params, 'id');
    const deliveryId = field(request.body, 'delivery_id');
    const since = field(request.body, 'since');
    let which: { id: string } | { since: number };
    if (deliveryId !== '') which = { id: deliveryId.slice(0, 100) };
    else {
      // datetime-local has no zone: read as UTC, as the page says.
      const ms = Date.parse(/Z$|[+-]\d\d:\d\d$/.test(since) ? since : `${since}Z`);
      if (since === '' || Number.isNaN(ms)) {
        throw new PortalError(400, 'Bad request', 'Give an instant to replay from, or a delivery.');
      }
      which = { since: ms };
    }
    await adminOf(pctx).replay(key, id, which);
    return reply.redirect(`/portal/webhooks/${key.id}/${id}?notice=replayed`, 303);
  });
}

const NOTICES: Record<string, string> = {
  enabled: 'Webhook enabled: its queue is delivered from where it stopped.',
  disabled: 'Webhook disabled: nothing is delivered to it until you enable it.',
  deleted: 'Webhook deleted.',
  test: 'A test event is queued behind the others.',
  replayed: 'Queued to be sent again.',
};
