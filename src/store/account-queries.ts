// Account, key-management and usage queries shared by every SQL dialect.
import type { Kysely } from 'kysely';
import { rowToApiKey } from './rows.js';
import type { AccountsTable, StoreDatabase } from './schema.js';
import type { AccountRecord, ApiKeyRecord, UsageDay, UsageWrite } from './store.js';

const USAGE_COLUMNS = 4;

/** Emails compare without case or surrounding blanks: `Ann@Example.com ` is `ann@example.com`. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function rowToAccount(row: AccountsTable): AccountRecord {
  return {
    id: row.id,
    email: row.email,
    passwordHash: row.password_hash,
    createdAt: Number(row.created_at),
  };
}

export async function findApiKeyById(db: Kysely<StoreDatabase>, id: string): Promise<ApiKeyRecord | null> {
  const row = await db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
  return row === undefined ? null : rowToApiKey(row);
}

export async function listApiKeysOfAccount(db: Kysely<StoreDatabase>, accountId: string): Promise<ApiKeyRecord[]> {
  const rows = await db
    .selectFrom('api_keys')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(rowToApiKey);
}

export async function revokeApiKey(db: Kysely<StoreDatabase>, id: string, at: number): Promise<ApiKeyRecord | null> {
  // Only the revocation column: a concurrent usage flush may be raising last_used_at.
  await db
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
  return findApiKeyById(db, id);
}

export async function setApiKeyPlan(db: Kysely<StoreDatabase>, id: string, plan: string): Promise<ApiKeyRecord | null> {
  await db.updateTable('api_keys').set({ plan }).where('id', '=', id).execute();
  return findApiKeyById(db, id);
}

export async function createAccount(db: Kysely<StoreDatabase>, account: AccountRecord): Promise<boolean> {
  const result = await db
    .insertInto('accounts')
    .values({
      id: account.id,
      email: normalizeEmail(account.email),
      password_hash: account.passwordHash,
      created_at: account.createdAt,
    })
    .onConflict((oc) => oc.column('email').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

export async function findAccountByEmail(db: Kysely<StoreDatabase>, email: string): Promise<AccountRecord | null> {
  const row = await db.selectFrom('accounts').selectAll().where('email', '=', normalizeEmail(email)).executeTakeFirst();
  return row === undefined ? null : rowToAccount(row);
}

export async function findAccountById(db: Kysely<StoreDatabase>, id: string): Promise<AccountRecord | null> {
  const row = await db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  return row === undefined ? null : rowToAccount(row);
}

export async function loadUsage(db: Kysely<StoreDatabase>, fromDate: string): Promise<UsageDay[]> {
  const rows = await db
    .selectFrom('api_usage')
    .selectAll()
    .where('day', '>=', fromDate)
    .orderBy('day')
    .orderBy('key_id')
    .execute();
  return rows.map((r) => ({ keyId: r.key_id, date: r.day, requests: Number(r.requests), errors: Number(r.errors) }));
}

export async function saveUsage(db: Kysely<StoreDatabase>, write: UsageWrite, maxParameters: number): Promise<void> {
  if (write.days.length === 0 && write.lastUsed.length === 0) return;
  const perStatement = Math.max(1, Math.floor(maxParameters / USAGE_COLUMNS));
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < write.days.length; i += perStatement) {
      const rows = write.days.slice(i, i + perStatement).map((d) => ({
        key_id: d.keyId,
        day: d.date,
        requests: d.requests,
        errors: d.errors,
      }));
      await trx
        .insertInto('api_usage')
        .values(rows)
        .onConflict((oc) =>
          oc.columns(['key_id', 'day']).doUpdateSet((eb) => ({
            requests: eb.ref('excluded.requests'),
            errors: eb.ref('excluded.errors'),
          })),
        )
        .execute();
    }
    // Never moves a last-used time back (another process may have written a later one).
    for (const { keyId, at } of write.lastUsed) {
      await trx
        .updateTable('api_keys')
        .set({ last_used_at: at })
        .where('id', '=', keyId)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
        .execute();
    }
  });
}
