// A browser-like client of the portal over inject(): a cookie jar, form posts with the page's CSRF token, and page parsing.
import type { Reply, TestService } from '../helpers/service.js';

export const PASSWORD = 'correct horse battery staple';

export interface FormPost {
  /** Fields besides `_csrf` (taken from the last page unless given). */
  fields?: Record<string, string>;
  csrf?: string | null;
  headers?: Record<string, string>;
}

/** The value of a Set-Cookie header for `name`, if the reply sets it. */
export function setCookieOf(reply: Reply, name: string): string | undefined {
  const raw = reply.headers['set-cookie'];
  const all = raw === undefined ? [] : Array.isArray(raw) ? raw : [String(raw)];
  return all.find((c) => c.startsWith(`${name}=`));
}

/** The first hidden `_csrf` value of a page. */
export function csrfOf(html: string): string | null {
  return /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? null;
}

/**
 * Page markup without its layout (the templates are formatted by Prettier, which wraps attributes
 * and closing brackets): whitespace runs become one space, and no space or slash precedes `>`.
 */
export function flatMarkup(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/\s*\/>/g, '>')
    .replace(/\s+>/g, '>');
}

export class PortalClient {
  readonly jar = new Map<string, string>();
  /** The CSRF token of the last page read (what a browser's form would send). */
  csrf: string | null = null;

  constructor(readonly svc: TestService) {}

  private cookieHeader(): Record<string, string> {
    if (this.jar.size === 0) return {};
    return { cookie: [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ') };
  }

  private keep(reply: Reply): void {
    const raw = reply.headers['set-cookie'];
    const all = raw === undefined ? [] : Array.isArray(raw) ? raw : [String(raw)];
    for (const c of all) {
      const [pair = ''] = c.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      if (/max-age=0/i.test(c) || value === '') this.jar.delete(name);
      else this.jar.set(name, value);
    }
    const token = csrfOf(reply.text);
    if (token !== null) this.csrf = token;
  }

  /** Replies come back with `text` as flat markup (see flatMarkup). */
  async get(url: string, headers: Record<string, string> = {}): Promise<Reply> {
    const reply = await this.svc.inject('GET', url, { key: null, headers: { ...this.cookieHeader(), ...headers } });
    this.keep(reply);
    return { ...reply, text: flatMarkup(reply.text) };
  }

  async post(url: string, o: FormPost = {}): Promise<Reply> {
    const fields = { ...o.fields };
    const csrf = o.csrf === undefined ? this.csrf : o.csrf;
    if (csrf !== null) fields._csrf = csrf;
    const reply = await this.svc.inject('POST', url, {
      key: null,
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...this.cookieHeader(), ...o.headers },
    });
    this.keep(reply);
    return { ...reply, text: flatMarkup(reply.text) };
  }

  /** Opens the landing page (getting the form cookie) and signs up; the client is then signed in. */
  async signUp(email: string, password = PASSWORD): Promise<Reply> {
    await this.get('/portal');
    return this.post('/portal/sign-up', { fields: { email, password } });
  }

  async signIn(email: string, password = PASSWORD): Promise<Reply> {
    await this.get('/portal');
    return this.post('/portal/sign-in', { fields: { email, password } });
  }

  /** Creates a key from the keys page; returns its id and the secret shown once. */
  async createKey(name: string): Promise<{ id: string; secret: string; page: Reply }> {
    await this.get('/portal/keys');
    const page = await this.post('/portal/keys', { fields: { name } });
    if (page.status !== 200) throw new Error(`creating a key answered ${page.status}: ${page.text.slice(0, 300)}`);
    const m = /id="new-secret" class="secret" readonly value="([^"]+)" data-key-id="([^"]+)"/.exec(page.text);
    if (m === null) throw new Error('no secret on the page');
    return { secret: m[1] ?? '', id: m[2] ?? '', page };
  }
}

/** A signed-up client of a fresh account. */
export async function signedUp(svc: TestService, email: string): Promise<PortalClient> {
  const client = new PortalClient(svc);
  const reply = await client.signUp(email);
  if (reply.status !== 303) throw new Error(`sign-up answered ${reply.status}: ${reply.text.slice(0, 300)}`);
  return client;
}
