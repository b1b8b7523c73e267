// Verifying webhook deliveries (Standard Webhooks): the signature over `${webhook-id}.${webhook-timestamp}.${body}`, in constant time, within a timestamp tolerance.

/** Why a delivery was refused: treat it as not from the service (answer 400, do not process it). */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/** A delivery's body: `{type, timestamp, data}`. */
export interface WebhookEvent<D = Record<string, unknown>> {
  type: string;
  timestamp: string;
  data: D;
}

export interface VerifyWebhookOptions {
  /** How far the `webhook-timestamp` may be from now, either way (default 300 s: replayed old deliveries are refused). */
  toleranceSeconds?: number;
  /** Now, in epoch milliseconds (tests). */
  now?: () => number;
}

/** Request headers as frameworks give them: a fetch `Headers`, or a plain object (Node's `req.headers`). */
export type WebhookHeaders = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

function header(headers: WebhookHeaders, name: string): string | null {
  if (typeof (headers as { get?: unknown }).get === 'function')
    return (headers as { get(n: string): string | null }).get(name);
  const record = headers as Record<string, string | string[] | undefined>;
  const value = record[name] ?? Object.entries(record).find(([k]) => k.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

function base64ToBytes(text: string): Uint8Array<ArrayBuffer> {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Equal bytes, in time that depends only on the length. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/**
 * Checks a delivery and returns its parsed body, or throws WebhookVerificationError. Pass the body
 * exactly as received (the raw text or bytes, before any JSON parsing): re-serialized JSON does
 * not verify. Works in Node 20+ and browsers-alike runtimes (Web Crypto).
 *
 * ```ts
 * app.post('/hooks/sports', { config: { rawBody: true } }, async (req, reply) => {
 *   const event = await verifyWebhook(process.env.WEBHOOK_SECRET!, req.headers, req.rawBody!);
 *   if (await seen(req.headers['webhook-id'])) return reply.code(200).send(); // at-least-once
 *   await handle(event.type, event.data);
 *   return reply.code(204).send();
 * });
 * ```
 */
export async function verifyWebhook<D = Record<string, unknown>>(
  secret: string,
  headers: WebhookHeaders,
  body: string | Uint8Array,
  opts: VerifyWebhookOptions = {},
): Promise<WebhookEvent<D>> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (id === null || timestamp === null || signatures === null) {
    throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature header');
  }
  if (!/^\d{1,12}$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not Unix seconds');
  const tolerance = opts.toleranceSeconds ?? 300;
  const nowSeconds = Math.floor((opts.now ?? Date.now)() / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > tolerance) {
    throw new WebhookVerificationError('webhook-timestamp is outside the tolerance: too old or too new');
  }
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  const keyText = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  let keyBytes: Uint8Array<ArrayBuffer>;
  try {
    keyBytes = base64ToBytes(keyText);
  } catch {
    throw new WebhookVerificationError('the secret is not whsec_ followed by base64');
  }
  const key = await crypto.subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const expected = new Uint8Array(
    await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${id}.${timestamp}.${text}`)),
  );
  let matched = false;
  for (const candidate of signatures.split(' ')) {
    const comma = candidate.indexOf(',');
    if (comma < 0 || candidate.slice(0, comma) !== 'v1') continue;
    let given: Uint8Array;
    try {
      given = base64ToBytes(candidate.slice(comma + 1));
    } catch {
      continue;
    }
    // Every candidate is compared: how many precede a match says nothing.
    if (sameBytes(given, expected)) matched = true;
  }
  if (!matched) throw new WebhookVerificationError('no signature matches: wrong secret, or the body was changed');
  try {
    return JSON.parse(text) as WebhookEvent<D>;
  } catch {
    throw new WebhookVerificationError('the body is not JSON');
  }
}
