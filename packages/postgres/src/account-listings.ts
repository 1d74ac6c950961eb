import type { KeyEventPage, KeyRecord } from '@drops/auth';
import { InvalidRequestError } from '@drops/auth';
import { parseEventCursor } from '@drops/auth/internal';
import { keyOfRow, type KeyRow } from './key-columns.js';
import { eventOf, SQL, type EventRow } from './postgres-key-store-sql.js';
import type { Queryable } from './queryable.js';
import { unavailable } from './store-error.js';

/** `KeyStore.listByAccount` on PostgreSQL and PGlite: the account's active keys, newest first. */
export async function listKeys(db: Queryable, timeoutMs: number, accountId: string): Promise<KeyRecord[]> {
  let rows: KeyRow[];
  try {
    ({ rows } = await db.query<KeyRow>(SQL.list, [accountId], { name: 'drops_auth_keys_list', timeoutMs }));
  } catch (error) {
    throw unavailable(error);
  }
  return rows.map((row) => keyOfRow('listed', row));
}

/**
 * `KeyStore.listEvents` on PostgreSQL and PGlite: the account's key events, newest first. The
 * cursor is the `seq` of the last event of the previous page; a malformed one is an
 * `InvalidRequestError` (400) before any query.
 */
export async function listKeyEvents(
  db: Queryable,
  timeoutMs: number,
  accountId: string,
  page: { readonly limit: number; readonly cursor?: string },
): Promise<KeyEventPage> {
  if (page.cursor !== undefined) parseEventCursor(page.cursor);
  if (!Number.isInteger(page.limit) || page.limit < 1) throw new InvalidRequestError('limit must be a positive integer');
  let rows: EventRow[];
  try {
    // One more than asked: whether there is a next page, without a second query.
    const params = [accountId, page.cursor ?? null, page.limit + 1];
    ({ rows } = await db.query<EventRow>(SQL.listEvents, params, { name: 'drops_auth_key_events_list', timeoutMs }));
  } catch (error) {
    throw unavailable(error);
  }
  const events = rows.slice(0, page.limit);
  const more = rows.length > page.limit;
  return { events: events.map(eventOf), next: more ? events[events.length - 1]!.seq : null };
}
