// Sends a payload the read model already serialized: Fastify passes JSON strings and bytes through untouched.
import type { FastifyReply } from 'fastify';

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
