// Sends a payload the read model already serialized: Fastify passes JSON strings and bytes through untouched.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MIN_CODED_BYTES } from '../live/compression.js';
import type { ServedPayload } from '../live/served-payload.js';
import { entityTag, hashTag } from './conditional.js';
import { codingOf, isNotModified, varyOnCoding } from './content-coding.js';

export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Hot payloads are serialized once per change, not per request (DESIGN.md principle 3). The route's
 * response schema still documents the shape (OpenAPI); the typed reply only knows object payloads,
 * hence the widening to the plain reply type.
 */
export function sendRawJson(reply: unknown, body: string | Buffer): FastifyReply {
  return (reply as FastifyReply).type(JSON_TYPE).send(body);
}

/**
 * Sends cached payload bytes whose memory the read model recycles: they are held until the
 * response is done with them (`close` follows `finish`, and comes on an aborted response too).
 */
export function sendHeldJson(reply: unknown, body: Buffer, hold: (b: Buffer) => () => void): FastifyReply {
  (reply as FastifyReply).raw.once('close', hold(body));
  return sendRawJson(reply, body);
}

/**
 * Sends a read-model payload as the request asks: its ETag (from the payload's version, or a hash
 * when it has none), a 304 when If-None-Match names it, else its bytes in the negotiated coding.
 * Compressed forms are the payload's own, built once per change; identity bytes may be pooled
 * memory, held until the response is done with them.
 */
export async function sendPayload(
  request: FastifyRequest,
  reply: unknown,
  payload: ServedPayload,
  hold: (b: Buffer) => () => void,
): Promise<FastifyReply> {
  const r = reply as FastifyReply;
  const body = payload.body;
  const coding = codingOf(request, body.length);
  if (body.length >= MIN_CODED_BYTES) varyOnCoding(r);
  const etag = entityTag(payload.tag ?? hashTag(body), coding);
  void r.header('etag', etag);
  if (isNotModified(request, etag)) return r.code(304).send();
  if (coding === null) return sendHeldJson(r, body, hold);
  const encoded = payload.encoded(coding);
  const bytes = Buffer.isBuffer(encoded) ? encoded : await encoded;
  void r.header('content-encoding', coding);
  return sendRawJson(r, bytes);
}
