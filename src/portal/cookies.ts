// Reading the Cookie header and writing Set-Cookie values for the portal's two cookies.

/** The signed-in session (HttpOnly, SameSite=Lax, Path=/portal). */
export const SESSION_COOKIE = 'sds_session';
/** The anonymous forms' CSRF token (double submit: the cookie and the form field must match). */
export const FORM_COOKIE = 'sds_csrf';
export const COOKIE_PATH = '/portal';

/** Cookie values by name; the first of repeated names wins; malformed pairs are skipped. */
export function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (header === undefined || header.length > 8192) return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    if (!out.has(name)) out.set(name, value);
  }
  return out;
}

export interface CookieOptions {
  /** Seconds; 0 deletes the cookie; absent makes a browser-session cookie. */
  maxAge?: number;
  sameSite: 'Lax' | 'Strict';
  secure: boolean;
}

/** Our values are base64url tokens, so they need no encoding. */
export function serializeCookie(name: string, value: string, o: CookieOptions): string {
  const parts = [`${name}=${value}`, `Path=${COOKIE_PATH}`, 'HttpOnly', `SameSite=${o.sameSite}`];
  if (o.maxAge !== undefined) parts.push(`Max-Age=${Math.max(0, Math.floor(o.maxAge))}`);
  if (o.secure) parts.push('Secure');
  return parts.join('; ');
}
