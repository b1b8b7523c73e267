// Key management for this node (the portal, tests): create, revoke and re-plan keys, effective at once here.
import { badRequest } from '../domain/errors.js';
import type { PlanBook } from '../domain/quota.js';
import type { ApiKeyRecord, Store } from '../store/store.js';
import { createApiKey, type KeyAuthenticator } from './keys.js';

export const MAX_NAME_LENGTH = 100;

export interface KeyAdminDeps {
  store: Store;
  keys: KeyAuthenticator;
  plans: PlanBook;
  now: () => number;
}

/**
 * Every change forgets this node's cached key lookups, so a revoked key is refused by the very next
 * request here (other processes, like the `keys` CLI, take up to the cache's 5 seconds).
 */
export class KeyAdmin {
  constructor(private readonly deps: KeyAdminDeps) {}

  /** Checks a plan name against the configuration; 400 naming the known plans. */
  checkPlan(plan: string): void {
    if (!this.deps.plans.has(plan)) {
      throw badRequest(`unknown plan '${plan}'; configured plans: ${this.deps.plans.names().join(', ')}`);
    }
  }

  /** A key name trimmed, or 400 when it is empty or too long. */
  checkName(raw: string): string {
    const name = raw.trim();
    if (name.length === 0 || name.length > MAX_NAME_LENGTH) {
      throw badRequest(`key name must be 1 to ${MAX_NAME_LENGTH} characters`);
    }
    // eslint-disable-next-line no-control-regex -- control characters are what is refused here
    if (/[\u0000-\u001f\u007f]/.test(name)) throw badRequest('key name must not contain control characters');
    return name;
  }

  /** A new key (its secret is returned once, never stored). */
  async create(opts: {
    name: string;
    plan?: string;
    accountId: string | null;
  }): Promise<{ key: ApiKeyRecord; secret: string }> {
    const name = this.checkName(opts.name);
    const plan = opts.plan ?? 'free';
    this.checkPlan(plan);
    return createApiKey(this.deps.store, { name, plan, accountId: opts.accountId, now: this.deps.now() });
  }

  /** Revokes a key; null when there is no such key. */
  async revoke(id: string): Promise<ApiKeyRecord | null> {
    const key = await this.deps.store.revokeApiKey(id, this.deps.now());
    this.deps.keys.invalidate();
    return key;
  }

  /** Renames a key (the name is only a label: authentication is unchanged); null when there is no such key. */
  rename(id: string, name: string): Promise<ApiKeyRecord | null> {
    return this.deps.store.renameApiKey(id, this.checkName(name));
  }

  /** Moves a key to another configured plan; null when there is no such key. */
  async setPlan(id: string, plan: string): Promise<ApiKeyRecord | null> {
    this.checkPlan(plan);
    const key = await this.deps.store.setApiKeyPlan(id, plan);
    this.deps.keys.invalidate();
    return key;
  }

  /** An account's keys, oldest first. */
  listOfAccount(accountId: string): Promise<ApiKeyRecord[]> {
    return this.deps.store.listApiKeysOfAccount(accountId);
  }
}
