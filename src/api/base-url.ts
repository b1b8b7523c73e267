// The `{base_url}` of absolute URLs in payloads: PUBLIC_URL, or what the client used to reach us.
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';

const SAFE_HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

export function baseUrlOf(request: FastifyRequest, config: Config): string {
  if (config.publicUrl !== null) return config.publicUrl;
  const host = request.host;
  // A forged Host header must not end up in payloads (or multiply cached variants).
  if (typeof host === 'string' && SAFE_HOST.test(host) && host.length <= 255) return `${request.protocol}://${host}`;
  return `http://${config.host}:${config.port}`;
}
