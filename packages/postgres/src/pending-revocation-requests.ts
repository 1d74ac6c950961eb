import type { KeyEventSource, NewPendingRevocationRequest, PendingRevocationRequest } from '@drops/auth';
import { PENDING_REVOCATIONS_TABLE } from './key-store-migrations.js';
import type { Queryable } from './queryable.js';
import { unavailable } from './store-error.js';

// Revocations by value, recorded before POST /credentials/revoke answers and deleted once carried
// out (migration 6): the answer's time does not depend on what the keys were, and a crash between
// the two leaves the row for the next process.
const SQL = {
  record: `insert into ${PENDING_REVOCATIONS_TABLE} (key_ids, at, source, actor, ip, user_agent, url)
    values ($1::text[], $2::timestamptz, $3::text, $4::text, $5::text, $6::text, $7::text)`,
  pending: `select id::text as id, key_ids, at, source, actor, ip, user_agent, url
    from ${PENDING_REVOCATIONS_TABLE} order by ${PENDING_REVOCATIONS_TABLE}.id limit $1`,
  complete: `delete from ${PENDING_REVOCATIONS_TABLE} where id = $1::bigint`,
} as const;

interface PendingRevocationRow {
  id: string;
  key_ids: string[];
  at: Date;
  source: KeyEventSource;
  actor: string | null;
  ip: string | null;
  user_agent: string | null;
  url: string | null;
}

async function run<R>(db: Queryable, timeoutMs: number, sql: string, name: string, params: unknown[]): Promise<R[]> {
  try {
    return (await db.query<R>(sql, params, { name, timeoutMs })).rows;
  } catch (error) {
    throw unavailable(error);
  }
}

/** `KeyStore.recordRevocationRequest` on PostgreSQL and PGlite: one insert, whatever the ids are. */
export async function recordRevocationRequest(db: Queryable, timeoutMs: number, request: NewPendingRevocationRequest): Promise<void> {
  const { keyIds, at, event } = request;
  const params = [[...keyIds], at, event.source, event.actor, event.ip, event.userAgent, event.url];
  await run(db, timeoutMs, SQL.record, 'drops_auth_pending_revocations_record', params);
}

/** `KeyStore.pendingRevocationRequests`: the recorded revocations not yet completed, oldest first. */
export async function pendingRevocationRequests(db: Queryable, timeoutMs: number, limit: number): Promise<PendingRevocationRequest[]> {
  const rows = await run<PendingRevocationRow>(db, timeoutMs, SQL.pending, 'drops_auth_pending_revocations_list', [limit]);
  return rows.map((row) => ({
    id: row.id,
    keyIds: row.key_ids,
    at: new Date(row.at),
    event: { source: row.source, actor: row.actor, ip: row.ip, userAgent: row.user_agent, url: row.url },
  }));
}

/** `KeyStore.completeRevocationRequest`: forgets a recorded revocation once carried out. */
export async function completeRevocationRequest(db: Queryable, timeoutMs: number, id: string): Promise<void> {
  await run(db, timeoutMs, SQL.complete, 'drops_auth_pending_revocations_complete', [id]);
}
