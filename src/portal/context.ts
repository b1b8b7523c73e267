// What every portal page is given: its ports (accounts, keys, usage, clock, address), sessions, attempt limits, asset URLs, and the request's session.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AttemptLimiter } from './attempt-limiter.js';
import { renderPage, type AssetUrls, type PageOptions } from './layout.js';
import type { PortalPorts } from './ports.js';
import { PortalSessions, type SignedIn } from './sessions.js';

const MINUTE = 60_000;

/** Documented in docs/portal.md. */
export const LIMITS = {
  /** Failed sign-ins per email. */
  signInPerEmail: { max: 5, windowMs: 15 * MINUTE },
  /** Failed sign-ins per client address (several people may share one address). */
  signInPerAddress: { max: 20, windowMs: 15 * MINUTE },
  /** Sign-up attempts per client address (each costs a password hash). */
  signUpPerAddress: { max: 20, windowMs: 60 * MINUTE },
} as const;

export interface PortalContext {
  ports: PortalPorts;
  sessions: PortalSessions;
  signInPerEmail: AttemptLimiter;
  signInPerAddress: AttemptLimiter;
  signUpPerAddress: AttemptLimiter;
  assets: AssetUrls;
}

export function createPortalContext(ports: PortalPorts, assets: AssetUrls): PortalContext {
  return {
    ports,
    sessions: new PortalSessions({ store: ports.store, now: ports.now }),
    signInPerEmail: new AttemptLimiter(LIMITS.signInPerEmail, ports.now),
    signInPerAddress: new AttemptLimiter(LIMITS.signInPerAddress, ports.now),
    signUpPerAddress: new AttemptLimiter(LIMITS.signUpPerAddress, ports.now),
    assets,
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in portal session (portal pages behind sign-in). */
    portalSession?: SignedIn;
  }
}

/** The session of a page behind sign-in (its hook has checked it). */
export function sessionOf(request: FastifyRequest): SignedIn {
  const s = request.portalSession;
  if (s === undefined) throw new Error('portal page without a session: its route is outside the signed-in scope');
  return s;
}

/** Sends a whole page. */
export function sendPage(
  pctx: PortalContext,
  reply: FastifyReply,
  o: Omit<PageOptions, 'assets'>,
  status = 200,
): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(renderPage({ ...o, assets: pctx.assets }));
}

/** A form field as text: absent or non-text values read as ''. */
export function field(body: unknown, name: string): string {
  if (typeof body !== 'object' || body === null) return '';
  const v = (body as Record<string, unknown>)[name];
  return typeof v === 'string' ? v : '';
}
