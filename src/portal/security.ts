// The portal's request checks: same-origin POSTs, CSRF tokens, the Secure cookie flag, and the security headers of every page.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SiteAddress } from '../api/base-url.js';
import { tokensEqual } from './sessions.js';

/** An error the portal shows as an HTML page with this status (403 has no API error code: it is portal-only). */
export class PortalError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'PortalError';
  }
}

export const forbidden = (message: string): PortalError => new PortalError(403, 'Request refused', message);

/** https as the browser sees it: the request itself (X-Forwarded-Proto with TRUST_PROXY) or an https PUBLIC_URL. */
export function isSecure(request: FastifyRequest, site: SiteAddress): boolean {
  return request.protocol === 'https' || (site.publicUrl?.startsWith('https:') ?? false);
}

function originOf(url: string): string | null {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/** The origins this portal is reached at: PUBLIC_URL's, and the one of this request's Host. */
function ownOrigins(request: FastifyRequest, site: SiteAddress): Set<string> {
  const out = new Set<string>();
  if (site.publicUrl !== null) {
    const o = originOf(site.publicUrl);
    if (o !== null) out.add(o);
  }
  const here = originOf(`${request.protocol}://${request.host}`);
  if (here !== null) out.add(here);
  return out;
}

/**
 * A state-changing request must come from our own pages: Origin (or, without it, Referer) when the
 * browser sends one must be ours. Neither header is required (some privacy settings strip them);
 * the CSRF token is what every POST must carry in any case.
 */
export function checkSameOrigin(request: FastifyRequest, site: SiteAddress): void {
  const origin = request.headers.origin;
  const referer = request.headers.referer;
  const claimed = typeof origin === 'string' ? origin : typeof referer === 'string' ? referer : null;
  if (claimed === null) return;
  const o = originOf(claimed);
  if (o === null || !ownOrigins(request, site).has(o)) {
    throw forbidden('This form was sent from another site. Go back to the portal page and try again.');
  }
}

/** The form's `_csrf` field must equal the expected token. */
export function checkCsrfToken(given: string, expected: string | undefined): void {
  if (expected === undefined || expected === '' || given === '' || !tokensEqual(given, expected)) {
    throw forbidden(
      'This form has expired or was not sent by the portal (missing or wrong security token). Reload the page and try again; your browser must accept cookies.',
    );
  }
}

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Pages are never cached (they carry secrets and tokens), never framed, and run only our own scripts. */
export function setPageHeaders(reply: FastifyReply): void {
  void reply.header('content-security-policy', CSP);
  void reply.header('x-content-type-options', 'nosniff');
  void reply.header('x-frame-options', 'DENY');
  void reply.header('referrer-policy', 'same-origin');
  void reply.header('cache-control', 'no-store');
}
