// API key checks: keys are looked up by their SHA-256 hash (the store never sees a secret), cached briefly.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ServiceError } from '../domain/errors.js';
import { toStoreError } from '../store/store-health.js';
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
  /** When the store last answered for this key. */
  fetchedAt: number;
}

export interface KeyAuthenticatorOptions {
  /** How long an answer is used before the store is asked again (default 5 s). */
  ttlMs?: number;
  /**
   * While the datastore fails, an answer the store gave within this time is still used (default
   * one hour): reads keep serving the keys known before the fault. A key revoked on another node
   * in the last `ttlMs` before the fault works on this node until the store answers again.
   */
  staleMs?: number;
  /** How long a request with a stale answer waits for the store before using it (default 1 s). */
  staleWaitMs?: number;
  /** While the store fails, each key's lookup is retried at most this often (default 1 s). */
  retryMs?: number;
}

const DEFAULT_STALE_MS = 3_600_000;

/** A datastore fault (the store refuses, drops or cannot answer), not a bug. */
function isDatastoreFault(err: unknown): boolean {
  return err instanceof ServiceError && err.code === 'service_unavailable' && err.component === 'datastore';
}

/**
 * Resolves `X-API-Key` to a key record. Lookups are cached for a few seconds (negative answers too,
 * so a flood of bad keys cannot hammer the store); a revocation takes effect within that time.
 * While the datastore fails, keys it answered for within the last hour keep working (their last
 * answer is used), and a key never seen gets 503 `service_unavailable` (component `datastore`):
 * the service cannot tell whether it is valid, and 401 would tell the client it is not.
 */
export class KeyAuthenticator {
  private readonly cache = new Map<string, CacheEntry>();
  /** Lookups under way: a burst of requests with an uncached key asks the store once. */
  private readonly pending = new Map<string, Promise<ApiKeyRecord | null>>();
  /** Raised by invalidate(): a lookup that started before must not cache what it read. */
  private generation = 0;
  private readonly ttlMs: number;
  private readonly staleMs: number;
  private readonly staleWaitMs: number;
  private readonly retryMs: number;

  constructor(
    private readonly store: Store,
    private readonly now: () => number,
    options: number | KeyAuthenticatorOptions = {},
  ) {
    const o = typeof options === 'number' ? { ttlMs: options } : options;
    this.ttlMs = o.ttlMs ?? 5000;
    this.staleMs = o.staleMs ?? DEFAULT_STALE_MS;
    this.staleWaitMs = o.staleWaitMs ?? 1000;
    this.retryMs = o.retryMs ?? 1000;
  }

  async authenticate(rawKey: string | string[] | undefined): Promise<ApiKeyRecord> {
    if (rawKey === undefined || rawKey === '') {
      throw new ServiceError('unauthorized', 'missing API key: send it in the X-API-Key header');
    }
    if (Array.isArray(rawKey) || rawKey.length > 256) {
      throw new ServiceError('unauthorized', 'invalid API key');
    }
    // Keyed by the raw key (process memory only) so a hit costs no hashing on the hot path.
    let entry = this.cache.get(rawKey);
    if (entry === undefined || entry.expires <= this.now()) entry = await this.refresh(rawKey, entry);
    const record = entry.record;
    if (record === null) throw new ServiceError('unauthorized', 'invalid API key');
    if (record.revokedAt !== null) throw new ServiceError('unauthorized', 'this API key has been revoked');
    return record;
  }

  /** Asks the store; on a datastore fault, the last answer if it is recent enough. */
  private async refresh(rawKey: string, previous: CacheEntry | undefined): Promise<CacheEntry> {
    const generation = this.generation;
    const fresh = this.lookup(rawKey).then((record): CacheEntry => {
      const at = this.now();
      const entry = { record, expires: at + this.ttlMs, fetchedAt: at };
      if (generation === this.generation) {
        if (this.cache.size > 100_000) this.cache.clear();
        this.cache.set(rawKey, entry);
      }
      return entry;
    });
    const stale = previous !== undefined && this.now() - previous.fetchedAt <= this.staleMs ? previous : undefined;
    if (stale === undefined) {
      try {
        return await fresh;
      } catch (err) {
        throw toStoreError(err);
      }
    }
    // A store that hangs (a connect timeout) must not hold every request with a known key.
    fresh.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), this.staleWaitMs);
      timer.unref();
    });
    try {
      const answer = await Promise.race([fresh, waited]);
      if (answer !== null) return answer;
    } catch (err) {
      const mapped = toStoreError(err);
      if (!isDatastoreFault(mapped)) throw mapped;
    } finally {
      clearTimeout(timer);
    }
    // Asked again at most once a `retryMs` while the store fails.
    stale.expires = this.now() + this.retryMs;
    return stale;
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
