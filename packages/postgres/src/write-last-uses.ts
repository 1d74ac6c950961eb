import type { LastUseInfo } from '@drops/auth/internal';
import { SQL } from './postgres-key-store-sql.js';
import type { Queryable } from './queryable.js';

/**
 * Writes a batch of last-use times and the first uses' events, in one transaction (see
 * `SQL.recordUses`): what a {@link PostgresKeyStore}'s `LastUsedBatcher` flushes.
 * @internal
 */
export async function writeLastUses(
  db: Queryable,
  entries: ReadonlyMap<string, Date>,
  info: ReadonlyMap<string, LastUseInfo>,
  timeoutMs: number,
): Promise<void> {
  const ids: string[] = [];
  const times: string[] = [];
  const ips: (string | null)[] = [];
  const agents: (string | null)[] = [];
  for (const [id, at] of entries) {
    ids.push(id);
    times.push(at.toISOString());
    const request = info.get(id);
    ips.push(request?.ip ?? null);
    agents.push(request?.userAgent ?? null);
  }
  await db.transaction(async (tx) => {
    // Locked first, in id order: another instance writing the same key's first use waits here,
    // then sees its last use set and writes no second event.
    await tx.query(SQL.lockKeys, [ids], { name: 'drops_auth_keys_lock', timeoutMs });
    await tx.query(SQL.recordUses, [ids, times, ips, agents], { name: 'drops_auth_keys_record_uses', timeoutMs });
  });
}
