// API key checks: keys are looked up by their SHA-256 hash (the store never sees a secret), cached briefly.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ServiceError } from '../domain/errors.js';
import type { ApiKeyRecord, Store } from '../store/store.js';

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** A new random key: prefix for recognisability (secret scanners), 32 random bytes base64url. */
export function generateApiKey(): string {
  return `sk_${randomBytes(32).toString('base64url')}`;
}

/** Constant-time comparison of two secrets of any length (compares their digests). */
export function secretsEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}

interface CacheEntry {
  record: ApiKeyRecord | null;
  expires: number;
}

/**
 * Resolves `X-API-Key` to a key record. Lookups are cached for a few seconds (negative answers too,
 * so a flood of bad keys cannot hammer the store); a revocation takes effect within that time.
 */
export class KeyAuthenticator {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    private readonly store: Store,
    private readonly now: () => number,
    private readonly ttlMs = 5000,
  ) {}

  async authenticate(rawKey: string | string[] | undefined): Promise<ApiKeyRecord> {
    if (rawKey === undefined || rawKey === '') {
      throw new ServiceError('unauthorized', 'missing API key: send it in the X-API-Key header');
    }
    if (Array.isArray(rawKey) || rawKey.length > 256) {
      throw new ServiceError('unauthorized', 'invalid API key');
    }
    const now = this.now();
    // Keyed by the raw key (process memory only) so a hit costs no hashing on the hot path.
    let entry = this.cache.get(rawKey);
    if (entry === undefined || entry.expires <= now) {
      const record = await this.store.findApiKeyByHash(hashApiKey(rawKey));
      entry = { record, expires: now + this.ttlMs };
      if (this.cache.size > 100_000) this.cache.clear();
      this.cache.set(rawKey, entry);
    }
    const record = entry.record;
    if (record === null) throw new ServiceError('unauthorized', 'invalid API key');
    if (record.revokedAt !== null) throw new ServiceError('unauthorized', 'this API key has been revoked');
    return record;
  }

  /** Forgets cached answers (after a key is created or revoked in this process). */
  invalidate(): void {
    this.cache.clear();
  }
}

/** Makes sure the configured demo key exists with the configured plan; returns whether it was created. */
export async function ensureApiKey(
  store: Store,
  key: string,
  opts: { id: string; name: string; plan: string; now: number },
): Promise<boolean> {
  const hash = hashApiKey(key);
  const existing = await store.findApiKeyByHash(hash);
  if (existing !== null) {
    if (existing.plan !== opts.plan || existing.revokedAt !== null) {
      await store.saveApiKey({ ...existing, plan: opts.plan, revokedAt: null });
    }
    return false;
  }
  await store.saveApiKey({
    id: opts.id,
    keyHash: hash,
    name: opts.name,
    plan: opts.plan,
    createdAt: opts.now,
    lastUsedAt: null,
    revokedAt: null,
  });
  return true;
}
