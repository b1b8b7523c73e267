// Sign up, sign in and sign out: the landing page's two forms, login throttling, and the session cookie.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { normalizeEmail } from '../../store/account-queries.js';
import { field, sendPage, type PortalContext } from '../context.js';
import { COOKIE_PATH, FORM_COOKIE, parseCookies, serializeCookie, SESSION_COOKIE } from '../cookies.js';
import { html } from '../html.js';
import { hashPassword, verifyPassword } from '../passwords.js';
import { checkCsrfToken, checkSameOrigin, isSecure } from '../security.js';
import { newToken, SESSION_LIFETIME_MS } from '../sessions.js';

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;
const EMAIL_MAX = 254;
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

interface FormState {
  signInError?: string;
  signUpError?: string;
  signInEmail?: string;
  signUpEmail?: string;
  notice?: string;
}

/** The anonymous forms' token: the cookie's when it has one of the right shape, else a new one (set on the reply). */
function formToken(pctx: PortalContext, request: FastifyRequest, reply: FastifyReply): string {
  const existing = parseCookies(request.headers.cookie).get(FORM_COOKIE);
  if (existing !== undefined && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = newToken();
  void reply.header(
    'set-cookie',
    serializeCookie(FORM_COOKIE, token, { sameSite: 'Strict', secure: isSecure(request, pctx.ports.site) }),
  );
  return token;
}

function errorText(id: string, message: string | undefined) {
  return message === undefined ? '' : html`<p class="form-error" id="${id}" role="alert">${message}</p>`;
}

function landing(
  pctx: PortalContext,
  request: FastifyRequest,
  reply: FastifyReply,
  state: FormState = {},
  status = 200,
): FastifyReply {
  const token = formToken(pctx, request, reply);
  const inErr = state.signInError !== undefined;
  const upErr = state.signUpError !== undefined;
  const body = html` <p class="lead">
      Get an API key for real-time sports data: events, odds, live scores, results and settlements. New here?
      <a href="/portal/start">See how to get started</a>.
    </p>
    ${state.notice === undefined ? '' : html`<p class="notice" role="status">${state.notice}</p>`}
    <div class="columns">
      <section class="card" aria-labelledby="sign-in-title">
        <h2 id="sign-in-title">Sign in</h2>
        <form method="post" action="/portal/sign-in" novalidate>
          <input type="hidden" name="_csrf" value="${token}" />
          ${errorText('sign-in-error', state.signInError)}
          <label for="sign-in-email">Email</label>
          <input
            id="sign-in-email"
            name="email"
            type="email"
            autocomplete="username"
            required
            maxlength="${EMAIL_MAX}"
            value="${state.signInEmail ?? ''}"
            ${inErr ? html` aria-invalid="true" aria-describedby="sign-in-error"` : ''}
          />
          <label for="sign-in-password">Password</label>
          <input
            id="sign-in-password"
            name="password"
            type="password"
            autocomplete="current-password"
            required
            maxlength="${PASSWORD_MAX}"
            ${inErr ? html` aria-describedby="sign-in-error"` : ''}
          />
          <button type="submit">Sign in</button>
        </form>
      </section>
      <section class="card" aria-labelledby="sign-up-title">
        <h2 id="sign-up-title">Create an account</h2>
        <form method="post" action="/portal/sign-up" novalidate>
          <input type="hidden" name="_csrf" value="${token}" />
          ${errorText('sign-up-error', state.signUpError)}
          <label for="sign-up-email">Email</label>
          <input
            id="sign-up-email"
            name="email"
            type="email"
            autocomplete="email"
            required
            maxlength="${EMAIL_MAX}"
            value="${state.signUpEmail ?? ''}"
            ${upErr ? html` aria-invalid="true" aria-describedby="sign-up-error"` : ''}
          />
          <label for="sign-up-password">Password</label>
          <input
            id="sign-up-password"
            name="password"
            type="password"
            autocomplete="new-password"
            required
            minlength="${PASSWORD_MIN}"
            maxlength="${PASSWORD_MAX}"
            aria-describedby="password-hint${upErr ? ' sign-up-error' : ''}"
          />
          <p class="hint" id="password-hint">
            At least ${PASSWORD_MIN} characters. A passphrase of a few words is easy to remember.
          </p>
          <button type="submit">Create account</button>
        </form>
      </section>
    </div>`;
  return sendPage(pctx, reply, { title: 'Sign in or create an account', nav: 'home', session: null, body }, status);
}

/** Anonymous forms: same origin and the double-submit token (cookie = field). */
function checkAnonymousForm(pctx: PortalContext, request: FastifyRequest): void {
  checkSameOrigin(request, pctx.ports.site);
  checkCsrfToken(field(request.body, '_csrf'), parseCookies(request.headers.cookie).get(FORM_COOKIE));
}

function startSessionCookie(pctx: PortalContext, request: FastifyRequest, reply: FastifyReply, token: string): void {
  void reply.header(
    'set-cookie',
    serializeCookie(SESSION_COOKIE, token, {
      sameSite: 'Lax',
      secure: isSecure(request, pctx.ports.site),
      maxAge: SESSION_LIFETIME_MS / 1000,
    }),
  );
}

function retryText(ms: number): string {
  const minutes = Math.ceil(ms / 60_000);
  return minutes <= 1 ? 'in a minute' : `in ${minutes} minutes`;
}

function validateSignUp(email: string, password: string): string | null {
  if (email === '') return 'Enter your email address.';
  if (email.length > EMAIL_MAX || !EMAIL_SHAPE.test(email))
    return 'Enter a valid email address, like name@example.com.';
  if (password.length < PASSWORD_MIN) return `Choose a password of at least ${PASSWORD_MIN} characters.`;
  if (password.length > PASSWORD_MAX) return `Choose a password of at most ${PASSWORD_MAX} characters.`;
  return null;
}

export function authPages(app: FastifyInstance, pctx: PortalContext): void {
  // Wrong emails cost the same scrypt time as wrong passwords, so timing does not tell which accounts exist.
  let decoy: Promise<string> | null = null;
  const decoyHash = (): Promise<string> => (decoy ??= hashPassword(newToken()));

  app.get('/', async (request, reply) => {
    const token = parseCookies(request.headers.cookie).get(SESSION_COOKIE);
    if ((await pctx.sessions.resolve(token)) !== null) return reply.redirect('/portal/keys', 303);
    const q = request.query as Record<string, unknown>;
    return landing(pctx, request, reply, q.signed_out === '1' ? { notice: 'You are signed out.' } : {});
  });
  app.get('/sign-in', async (_request, reply) => reply.redirect('/portal', 303));
  app.get('/sign-up', async (_request, reply) => reply.redirect('/portal', 303));

  app.post('/sign-up', async (request, reply) => {
    checkAnonymousForm(pctx, request);
    const email = field(request.body, 'email').trim();
    const password = field(request.body, 'password');
    const invalid = validateSignUp(email, password);
    if (invalid !== null) return landing(pctx, request, reply, { signUpError: invalid, signUpEmail: email }, 400);

    const address = `sign-up:${request.ip}`;
    const wait = pctx.signUpPerAddress.retryAfterMs(address);
    if (wait > 0) {
      void reply.header('retry-after', String(Math.ceil(wait / 1000)));
      const message = `Too many sign-ups from your network. Try again ${retryText(wait)}.`;
      return landing(pctx, request, reply, { signUpError: message, signUpEmail: email }, 429);
    }
    pctx.signUpPerAddress.record(address);

    const id = `acc_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
    const passwordHash = await hashPassword(password);
    const created = await pctx.ports.store.createAccount({ id, email, passwordHash, createdAt: pctx.ports.now() });
    if (!created) {
      const message = 'An account with this email already exists. Sign in instead.';
      return landing(pctx, request, reply, { signUpError: message, signUpEmail: email, signInEmail: email }, 400);
    }
    startSessionCookie(pctx, request, reply, await pctx.sessions.start(id));
    return reply.redirect('/portal/keys?welcome=1', 303);
  });

  app.post('/sign-in', async (request, reply) => {
    checkAnonymousForm(pctx, request);
    const email = field(request.body, 'email').trim();
    const password = field(request.body, 'password');
    if (email === '' || password === '') {
      return landing(pctx, request, reply, { signInError: 'Enter your email and password.', signInEmail: email }, 400);
    }
    const byEmail = `sign-in:${normalizeEmail(email)}`;
    const byAddress = `sign-in:${request.ip}`;
    const wait = Math.max(pctx.signInPerEmail.retryAfterMs(byEmail), pctx.signInPerAddress.retryAfterMs(byAddress));
    if (wait > 0) {
      void reply.header('retry-after', String(Math.ceil(wait / 1000)));
      const message = `Too many failed sign-ins. Try again ${retryText(wait)}.`;
      return landing(pctx, request, reply, { signInError: message, signInEmail: email }, 429);
    }
    const account = email.length <= EMAIL_MAX ? await pctx.ports.store.findAccountByEmail(email) : null;
    // No stored password is longer than PASSWORD_MAX (sign-up refuses it): a longer one is wrong unhashed.
    const ok =
      password.length <= PASSWORD_MAX && (await verifyPassword(password, account?.passwordHash ?? (await decoyHash())));
    if (account === null || !ok) {
      pctx.signInPerEmail.record(byEmail);
      pctx.signInPerAddress.record(byAddress);
      return landing(pctx, request, reply, { signInError: 'Wrong email or password.', signInEmail: email }, 401);
    }
    pctx.signInPerEmail.clear(byEmail);
    startSessionCookie(pctx, request, reply, await pctx.sessions.start(account.id));
    return reply.redirect('/portal/keys', 303);
  });

  app.post('/sign-out', async (request, reply) => {
    const token = parseCookies(request.headers.cookie).get(SESSION_COOKIE);
    const session = await pctx.sessions.resolve(token);
    if (session !== null) {
      checkSameOrigin(request, pctx.ports.site);
      checkCsrfToken(field(request.body, '_csrf'), session.csrf);
      await pctx.sessions.end(session.token);
    }
    void reply.header(
      'set-cookie',
      serializeCookie(SESSION_COOKIE, '', { sameSite: 'Lax', secure: isSecure(request, pctx.ports.site), maxAge: 0 }),
    );
    return reply.redirect(`${COOKIE_PATH}?signed_out=1`, 303);
  });
}
