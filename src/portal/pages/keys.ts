// The keys page: list an account's keys, create one (its secret shown once), rename, and revoke after a confirm step.
import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../../domain/errors.js';
import { MAX_NAME_LENGTH } from '../../api/key-admin.js';
import type { ApiKeyRecord } from '../../store/store.js';
import { field, sendPage, sessionOf, type PortalContext } from '../context.js';
import { html, type SafeHtml } from '../html.js';
import { timeTag } from '../layout.js';
import { PortalError } from '../security.js';
import type { SignedIn } from '../sessions.js';

/** Active keys an account may hold at once (revoked ones do not count). */
export const MAX_ACTIVE_KEYS = 20;

const notFoundKey = (): PortalError => new PortalError(404, 'Key not found', 'There is no such key in your account.');

/** The key if it belongs to the signed-in account; another account's key is "not found" (never told apart). */
export async function ownedKey(pctx: PortalContext, session: SignedIn, keyId: string): Promise<ApiKeyRecord> {
  const key = keyId.length <= 100 ? await pctx.ports.store.findApiKeyById(keyId) : null;
  if (key === null || key.accountId !== session.account.id) throw notFoundKey();
  return key;
}

function statusBadge(key: ApiKeyRecord): SafeHtml {
  return key.revokedAt === null
    ? html`<span><span class="badge badge-ok">Active</span></span>`
    : html`<span><span class="badge badge-off">Revoked</span> ${timeTag(key.revokedAt)}</span>`;
}

function keyRow(key: ApiKeyRecord, csrf: string): SafeHtml {
  const actions =
    key.revokedAt === null
      ? html`<a href="/portal/usage?key=${key.id}">Usage</a>
          <details class="rename">
            <summary>Rename</summary>
            <form method="post" action="/portal/keys/${key.id}/name">
              <input type="hidden" name="_csrf" value="${csrf}" />
              <label for="name-${key.id}">New name</label>
              <input id="name-${key.id}" name="name" required maxlength="${MAX_NAME_LENGTH}" value="${key.name}" />
              <button type="submit">Save</button>
            </form>
          </details>
          <a class="danger-link" href="/portal/keys/${key.id}/revoke">Revoke…</a>`
      : html`<a href="/portal/usage?key=${key.id}">Usage</a>`;
  return html`<tr data-key-id="${key.id}">
    <th scope="row" data-label="Name">${key.name}</th>
    <td data-label="Plan">${key.plan}</td>
    <td data-label="Key ID"><code>${key.id}</code></td>
    <td data-label="Created">${timeTag(key.createdAt)}</td>
    <td data-label="Last used">${timeTag(key.lastUsedAt)}</td>
    <td data-label="Status">${statusBadge(key)}</td>
    <td data-label="Actions" class="actions">${actions}</td>
  </tr>`;
}

interface KeysPageState {
  created?: { key: ApiKeyRecord; secret: string };
  notice?: string;
  error?: string;
  name?: string;
}

async function keysPage(pctx: PortalContext, session: SignedIn, state: KeysPageState): Promise<SafeHtml> {
  const keys = await pctx.ports.keyAdmin.listOfAccount(session.account.id);
  const created = state.created;
  const secretPanel =
    created === undefined
      ? ''
      : html`<section class="card new-key" aria-labelledby="new-key-title">
          <h2 id="new-key-title">Your new key “${created.key.name}”</h2>
          <p>
            <strong>Copy it now: it is shown only this once.</strong> We keep only a hash of it; if you lose it, revoke
            it and create another.
          </p>
          <div class="copy-row">
            <label class="visually-hidden" for="new-secret">Secret of key ${created.key.name}</label>
            <input
              id="new-secret"
              class="secret"
              readonly
              value="${created.secret}"
              data-key-id="${created.key.id}"
              spellcheck="false"
              autocomplete="off"
            />
            <button type="button" data-copy="new-secret">Copy</button>
          </div>
          <p class="copy-status" data-copy-status="new-secret" role="status" aria-live="polite"></p>
          <p>
            <a class="button" href="/portal/explorer?key=${created.key.id}" data-use-in-explorer="new-secret"
              >Try it in the explorer</a
            >
          </p>
        </section>`;
  const active = keys.filter((k) => k.revokedAt === null).length;
  const table =
    keys.length === 0
      ? html`<p>You have no keys yet. Create one below.</p>`
      : html`<div class="table-wrap">
          <table class="keys responsive">
            <caption class="visually-hidden">
              Your API keys
            </caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Plan</th>
                <th scope="col">Key ID</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Status</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              ${keys.map((k) => keyRow(k, session.csrf))}
            </tbody>
          </table>
        </div>`;
  const err = state.error;
  return html` ${state.notice === undefined ? '' : html`<p class="notice" role="status">${state.notice}</p>`}
    ${secretPanel}
    <section aria-labelledby="keys-title">
      <h2 id="keys-title">Your keys</h2>
      ${table}
    </section>
    <section class="card" aria-labelledby="create-title">
      <h2 id="create-title">Create a key</h2>
      <form method="post" action="/portal/keys" class="inline-form">
        <input type="hidden" name="_csrf" value="${session.csrf}" />
        ${err === undefined ? '' : html`<p class="form-error" id="create-error" role="alert">${err}</p>`}
        <label for="key-name">Key name</label>
        <input
          id="key-name"
          name="name"
          required
          maxlength="${MAX_NAME_LENGTH}"
          value="${state.name ?? ''}"
          aria-describedby="key-name-hint${err === undefined ? '' : ' create-error'}"
          ${err === undefined ? '' : html` aria-invalid="true"`}
        />
        <p class="hint" id="key-name-hint">
          Say where it is used, like “production server”. New keys are on the free plan. ${active} of ${MAX_ACTIVE_KEYS}
          active keys used.
        </p>
        <button type="submit">Create key</button>
      </form>
    </section>`;
}

export function keyPages(app: FastifyInstance, pctx: PortalContext): void {
  app.get('/keys', async (request, reply) => {
    const session = sessionOf(request);
    const q = request.query as Record<string, unknown>;
    let notice: string | undefined;
    if (q.welcome === '1') notice = 'Your account is ready. Create your first key below.';
    for (const [param, verb] of [
      ['revoked', 'revoked: requests with it are now refused'],
      ['renamed', 'renamed'],
    ] as const) {
      const id = q[param];
      if (typeof id !== 'string') continue;
      const key = await pctx.ports.store.findApiKeyById(id.slice(0, 100));
      if (key !== null && key.accountId === session.account.id) notice = `Key “${key.name}” ${verb}.`;
    }
    const body = await keysPage(pctx, session, notice === undefined ? {} : { notice });
    return sendPage(pctx, reply, { title: 'API keys', nav: 'keys', session, body });
  });

  app.post('/keys', async (request, reply) => {
    const session = sessionOf(request);
    const name = field(request.body, 'name');
    const page = async (state: KeysPageState, status: number) =>
      sendPage(
        pctx,
        reply,
        { title: 'API keys', nav: 'keys', session, body: await keysPage(pctx, session, state) },
        status,
      );
    const keys = await pctx.ports.keyAdmin.listOfAccount(session.account.id);
    if (keys.filter((k) => k.revokedAt === null).length >= MAX_ACTIVE_KEYS) {
      return page({ error: `You already have ${MAX_ACTIVE_KEYS} active keys: revoke one first.`, name }, 400);
    }
    try {
      const created = await pctx.ports.keyAdmin.create({ name, accountId: session.account.id });
      // Answered here (not redirected): the secret must never travel in a URL or be shown twice.
      return page({ created }, 200);
    } catch (err) {
      if (err instanceof ServiceError && err.code === 'bad_request') {
        return page({ error: `Give the key a name of 1 to ${MAX_NAME_LENGTH} characters.`, name }, 400);
      }
      throw err;
    }
  });

  app.post('/keys/:keyId/name', async (request, reply) => {
    const session = sessionOf(request);
    const key = await ownedKey(pctx, session, (request.params as { keyId: string }).keyId);
    try {
      await pctx.ports.keyAdmin.rename(key.id, field(request.body, 'name'));
    } catch (err) {
      if (err instanceof ServiceError && err.code === 'bad_request') {
        throw new PortalError(400, 'Name not saved', `A key name has 1 to ${MAX_NAME_LENGTH} characters.`);
      }
      throw err;
    }
    return reply.redirect(`/portal/keys?renamed=${encodeURIComponent(key.id)}`, 303);
  });

  app.get('/keys/:keyId/revoke', async (request, reply) => {
    const session = sessionOf(request);
    const key = await ownedKey(pctx, session, (request.params as { keyId: string }).keyId);
    const body =
      key.revokedAt !== null
        ? html`<p>Key “${key.name}” was already revoked ${timeTag(key.revokedAt)}.</p>
            <p><a href="/portal/keys">Back to your keys</a></p>`
        : html`<section class="card danger" aria-labelledby="confirm-title">
            <h2 id="confirm-title">Revoke key “${key.name}”?</h2>
            <p>
              Every request made with it is refused at once (401 unauthorized). This cannot be undone: you would create
              a new key instead.
            </p>
            <p>
              Key ID <code>${key.id}</code>, created ${timeTag(key.createdAt)}, last used ${timeTag(key.lastUsedAt)}.
            </p>
            <form method="post" action="/portal/keys/${key.id}/revoke" class="button-row">
              <input type="hidden" name="_csrf" value="${session.csrf}" />
              <button type="submit" class="danger-button">Revoke this key</button>
              <a class="button secondary" href="/portal/keys">Cancel</a>
            </form>
          </section>`;
    return sendPage(pctx, reply, { title: 'Revoke a key', nav: 'keys', session, body });
  });

  app.post('/keys/:keyId/revoke', async (request, reply) => {
    const session = sessionOf(request);
    const key = await ownedKey(pctx, session, (request.params as { keyId: string }).keyId);
    await pctx.ports.keyAdmin.revoke(key.id);
    return reply.redirect(`/portal/keys?revoked=${encodeURIComponent(key.id)}`, 303);
  });
}
