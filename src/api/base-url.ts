// The `{base_url}` of absolute URLs in payloads: PUBLIC_URL, or what the client used to reach us.
import type { FastifyRequest } from 'fastify';

/** Where this node is reached: PUBLIC_URL when set, else the address it listens on. */
export interface SiteAddress {
  publicUrl: string | null;
  host: string;
  port: number;
}

const SAFE_HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

export function baseUrlOf(request: FastifyRequest, site: SiteAddress): string {
  if (site.publicUrl !== null) return site.publicUrl;
  const host = request.host;
  // A forged Host header must not end up in payloads (or multiply cached variants).
  if (typeof host === 'string' && SAFE_HOST.test(host) && host.length <= 255) return `${request.protocol}://${host}`;
  return `http://${site.host}:${site.port}`;
}
