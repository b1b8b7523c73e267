// Portal sessions: a random token in the cookie, only its hash in the store; CSRF tokens derived from the session.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AccountRecord } from '../store/store.js';
import type { PortalStore } from './ports.js';

/** Fixed lifetime from sign-in (not sliding): a stolen cookie is worth a week at most. */
export const SESSION_LIFETIME_MS = 7 * 24 * 3_600_000;

export interface SignedIn {
  account: AccountRecord;
  /** The raw token from the cookie (kept in memory for this request only). */
  token: string;
  /** The CSRF token every form of this session carries. */
  csrf: string;
}

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The session's synchronizer token: an HMAC keyed by the session token, so it needs no storage. */
export function csrfTokenOf(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update('sds-portal-csrf').digest('base64url');
}

/** Constant-time equality of two tokens (different lengths are simply unequal). */
export function tokensEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export class PortalSessions {
  constructor(private readonly deps: { store: PortalStore; now: () => number }) {}

  /** Starts a session for an account; sweeps expired ones on the way (sign-ins are rare enough). */
  async start(accountId: string): Promise<string> {
    const now = this.deps.now();
    await this.deps.store.deleteExpiredPortalSessions(now);
    const token = newToken();
    await this.deps.store.createPortalSession({
      tokenHash: hashToken(token),
      accountId,
      createdAt: now,
      expiresAt: now + SESSION_LIFETIME_MS,
    });
    return token;
  }

  /** The signed-in account of a cookie token, or null (unknown, expired, or the account is gone). */
  async resolve(token: string | undefined): Promise<SignedIn | null> {
    if (token === undefined || !TOKEN_SHAPE.test(token)) return null;
    const session = await this.deps.store.findPortalSession(hashToken(token));
    if (session === null || session.expiresAt <= this.deps.now()) return null;
    const account = await this.deps.store.findAccountById(session.accountId);
    if (account === null) return null;
    return { account, token, csrf: csrfTokenOf(token) };
  }

  async end(token: string): Promise<void> {
    await this.deps.store.deletePortalSession(hashToken(token));
  }
}
