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
  /** Lookups under way: a burst of requests with an uncached key asks the store once. */
  private readonly pending = new Map<string, Promise<ApiKeyRecord | null>>();
  /** Raised by invalidate(): a lookup that started before must not cache what it read. */
  private generation = 0;

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
    // Keyed by the raw key (process memory only) so a hit costs no hashing on the hot path.
    let entry = this.cache.get(rawKey);
    if (entry === undefined || entry.expires <= this.now()) {
      const generation = this.generation;
      const record = await this.lookup(rawKey);
      entry = { record, expires: this.now() + this.ttlMs };
      if (generation === this.generation) {
        if (this.cache.size > 100_000) this.cache.clear();
        this.cache.set(rawKey, entry);
      }
    }
    const record = entry.record;
    if (record === null) throw new ServiceError('unauthorized', 'invalid API key');
    if (record.revokedAt !== null) throw new ServiceError('unauthorized', 'this API key has been revoked');
    return record;
  }

  private lookup(rawKey: string): Promise<ApiKeyRecord | null> {
    let lookup = this.pending.get(rawKey);
    if (lookup === undefined) {
      const started = this.store.findApiKeyByHash(hashApiKey(rawKey));
      lookup = started;
      this.pending.set(rawKey, started);
      const forget = (): void => {
        if (this.pending.get(rawKey) === started) this.pending.delete(rawKey);
      };
      started.then(forget, forget);
    }
    return lookup;
  }

  /** Forgets cached answers (after a key is created, revoked or re-planned in this process). */
  invalidate(): void {
    this.generation++;
    this.cache.clear();
    this.pending.clear();
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
    accountId: null,
  });
  return true;
}

/** A new key id: random, so it tells nothing about the secret. */
export function newKeyId(): string {
  return `key_${randomBytes(8).toString('hex')}`;
}

/**
 * Creates a key and returns its secret, which exists nowhere else from now on: show it once.
 * The plan is not checked here (callers check it against the configured plans).
 */
export async function createApiKey(
  store: Store,
  opts: { name: string; plan: string; accountId: string | null; now: number },
): Promise<{ key: ApiKeyRecord; secret: string }> {
  const secret = generateApiKey();
  const key: ApiKeyRecord = {
    id: newKeyId(),
    keyHash: hashApiKey(secret),
    name: opts.name,
    plan: opts.plan,
    createdAt: opts.now,
    lastUsedAt: null,
    revokedAt: null,
    accountId: opts.accountId,
  };
  await store.saveApiKey(key);
  return { key, secret };
}
