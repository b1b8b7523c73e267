// Standard Webhooks signatures: v1 = base64 HMAC-SHA256 of `${id}.${timestamp}.${body}` under the secret's decoded bytes.
import { createHmac } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

/** The key bytes of a secret: the base64 after `whsec_`. */
export function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** One `v1,<base64>` signature. */
export function signPayload(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The `webhook-signature` header: one signature per secret, space-separated (a rotation's overlap signs with both). */
export function signatureHeader(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): string {
  return secrets.map((s) => signPayload(s, id, timestampSeconds, body)).join(' ');
}
