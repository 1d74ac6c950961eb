import { REVISION_TABLE } from '../key-store-migrations.js';
import type { SqlExecutor } from '../queryable.js';

/**
 * This session's updates of the revision row so far. Counted before and after a statement in one
 * transaction, the difference is the statement's (the counts may also hold earlier transactions
 * of the session not yet reported, hence the difference).
 */
export async function revisionRowUpdates(tx: SqlExecutor): Promise<number> {
  const { rows } = await tx.query<{ n: string }>('select n_tup_upd::text as n from pg_stat_xact_user_tables where relname = $1', [
    REVISION_TABLE,
  ]);
  return Number(rows[0]?.n);
}
