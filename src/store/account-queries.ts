// Account, key-management and usage queries shared by every SQL dialect.
import type { Kysely } from 'kysely';
import { rowToApiKey } from './rows.js';
import type { AccountsTable, PortalSessionsTable, StoreDatabase } from './schema.js';
import { inTransaction } from './transactions.js';
import type { AccountRecord, ApiKeyRecord, PortalSessionRecord, UsageDay, UsageWrite } from './store.js';

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

export async function renameApiKey(db: Kysely<StoreDatabase>, id: string, name: string): Promise<ApiKeyRecord | null> {
  await db.updateTable('api_keys').set({ name }).where('id', '=', id).execute();
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

function rowToSession(row: PortalSessionsTable): PortalSessionRecord {
  return {
    tokenHash: row.token_hash,
    accountId: row.account_id,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
  };
}

export async function createPortalSession(db: Kysely<StoreDatabase>, session: PortalSessionRecord): Promise<void> {
  await db
    .insertInto('portal_sessions')
    .values({
      token_hash: session.tokenHash,
      account_id: session.accountId,
      created_at: session.createdAt,
      expires_at: session.expiresAt,
    })
    .execute();
}

export async function findPortalSession(
  db: Kysely<StoreDatabase>,
  tokenHash: string,
): Promise<PortalSessionRecord | null> {
  const row = await db.selectFrom('portal_sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  return row === undefined ? null : rowToSession(row);
}

export async function deletePortalSession(db: Kysely<StoreDatabase>, tokenHash: string): Promise<void> {
  await db.deleteFrom('portal_sessions').where('token_hash', '=', tokenHash).execute();
}

export async function deleteExpiredPortalSessions(db: Kysely<StoreDatabase>, at: number): Promise<number> {
  const r = await db.deleteFrom('portal_sessions').where('expires_at', '<=', at).executeTakeFirst();
  return Number(r.numDeletedRows);
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
  // Rows in key order, each once: API nodes flushing the same keys at once on PostgreSQL then lock
  // them in the same order (no deadlock), and one upsert never touches a row twice.
  const byRow = new Map(write.days.map((d) => [`${d.keyId}\u0000${d.date}`, d]));
  const days = [...byRow.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, d]) => d);
  const lastUsed = [...write.lastUsed].sort((a, b) => (a.keyId < b.keyId ? -1 : a.keyId > b.keyId ? 1 : 0));
  await inTransaction(db, async (trx) => {
    for (let i = 0; i < days.length; i += perStatement) {
      const rows = days.slice(i, i + perStatement).map((d) => ({
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
    for (const { keyId, at } of lastUsed) {
      await trx
        .updateTable('api_keys')
        .set({ last_used_at: at })
        .where('id', '=', keyId)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
        .execute();
    }
  });
}
