import { InvalidRequestError } from '../errors/invalid-request-error.js';

/** Default `limit` of `KeyManager.events`: events per page. */
export const DEFAULT_KEY_EVENTS_LIMIT = 50;
/** Largest `limit` `KeyManager.events` accepts. */
export const MAX_KEY_EVENTS_LIMIT = 100;

/** Longest cursor passed on to a store: the drops stores' cursors are short decimal numbers. */
const MAX_CURSOR_LENGTH = 64;

/** What `KeyManager.events` may be given: typically a request's query (`?cursor=&limit=`). */
export interface KeyEventsPageRequest {
  /** The `next` of a previous page. Absent, `null` or `''`: the first page. */
  readonly cursor?: unknown;
  /** Events per page, 1 to {@link MAX_KEY_EVENTS_LIMIT}, a number or a decimal string. Default {@link DEFAULT_KEY_EVENTS_LIMIT}. */
  readonly limit?: unknown;
}

function parseLimit(limit: unknown): number {
  if (limit === undefined || limit === null || limit === '') return DEFAULT_KEY_EVENTS_LIMIT;
  const n = typeof limit === 'string' && /^[0-9]{1,3}$/.test(limit) ? Number(limit) : limit;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_KEY_EVENTS_LIMIT) {
    throw new InvalidRequestError(`limit must be an integer from 1 to ${MAX_KEY_EVENTS_LIMIT}`);
  }
  return n;
}

function parseCursor(cursor: unknown): string | undefined {
  if (cursor === undefined || cursor === null || cursor === '') return undefined;
  if (typeof cursor !== 'string' || cursor.length > MAX_CURSOR_LENGTH) {
    throw new InvalidRequestError('invalid cursor: pass the "next" of a previous page');
  }
  return cursor;
}

/**
 * Checks a page request that may come straight from a query string or a body: anything but a
 * limit of 1 to 100 and a string cursor is an `InvalidRequestError` (400), never a 5xx.
 * @internal
 */
export function parseKeyEventsPage(page: unknown): { limit: number; cursor?: string } {
  if (page === undefined || page === null) return { limit: DEFAULT_KEY_EVENTS_LIMIT };
  if (typeof page !== 'object' || Array.isArray(page)) throw new InvalidRequestError('expected {cursor?, limit?}');
  const { cursor, limit } = page as KeyEventsPageRequest;
  const parsedCursor = parseCursor(cursor);
  return parsedCursor === undefined ? { limit: parseLimit(limit) } : { limit: parseLimit(limit), cursor: parsedCursor };
}
