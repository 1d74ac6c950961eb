import { InvalidRequestError } from '../errors/invalid-request-error.js';

// A position in a store's event sequence: a positive decimal of at most 18 digits, so it always
// fits PostgreSQL's bigint and compares exactly as a JavaScript number up to 2^53.
const CURSOR = /^[1-9][0-9]{0,17}$/;

/**
 * Checks a key event cursor (the `next` of a previous page) and answers it as a number. The drops
 * stores write the sequence number of the page's last event; anything else is an
 * `InvalidRequestError` (400), never a query.
 * @internal
 *
 * @example
 * ```ts
 * parseEventCursor('42'); // 42
 * parseEventCursor('abc'); // throws InvalidRequestError
 * ```
 */
export function parseEventCursor(cursor: unknown): number {
  if (typeof cursor !== 'string' || !CURSOR.test(cursor))
    throw new InvalidRequestError('invalid cursor: pass the "next" of a previous page');
  return Number(cursor);
}
