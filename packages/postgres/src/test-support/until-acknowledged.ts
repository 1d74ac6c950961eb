import type { SqlExecutor } from '../queryable.js';
import { eventually } from './eventually.js';

/**
 * Waits until no instance holding an unexpired lease has yet to acknowledge `revision`
 * (`drops_auth_revocation_pending` is 0), as a revoker or minter does after its commit: from then
 * on every instance answers with that revision applied. Fails after `ms`.
 */
export async function untilAcknowledged(db: SqlExecutor, revision: string | number, ms = 30_000): Promise<void> {
  await eventually(async () => {
    const { rows } = await db.query<{ n: number }>('select drops_auth_revocation_pending($1) as n', [revision]);
    return rows[0]?.n === 0 ? true : undefined;
  }, ms);
}
