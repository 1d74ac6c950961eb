import type { Queryable, SqlExecutor } from '@drops/auth-postgres';
import { HttpError } from '../http/http-error.js';

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * Whether a database error means "could not reach the database" (an outage: 503) rather than a
 * bug or a constraint (500 or handled): network errors, pg's pool and connection errors, PGlite
 * closed, and the server's own connection and shutdown SQLSTATEs (class 08, 57P0x, 53300).
 */
export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code)) return code.startsWith('08') || code.startsWith('57P0') || code === '53300';
  }
  return /connection terminated|timeout exceeded when trying to connect|connect ECONNREFUSED|pglite is closed|closed/i.test(error.message);
}

function unavailable(error: unknown): unknown {
  return isUnavailable(error)
    ? Object.assign(new HttpError(503, 'the database is unavailable, try again shortly', { 'retry-after': '5' }), { cause: error })
    : error;
}

function guardExecutor<T extends SqlExecutor>(db: T): SqlExecutor {
  return {
    query: (sql, params, options) => db.query(sql, params, options).catch((e: unknown) => Promise.reject(unavailable(e))),
    exec: (script) => db.exec(script).catch((e: unknown) => Promise.reject(unavailable(e))),
  } as SqlExecutor;
}

/**
 * The server's routes use the database through this: an outage becomes a `503 {"error"}` with
 * `Retry-After` (as the key store's does), never a 500.
 */
export function guardAvailability(db: Queryable): Queryable {
  return {
    ...guardExecutor(db),
    transaction: (fn) => db.transaction((tx) => fn(guardExecutor(tx))).catch((e: unknown) => Promise.reject(unavailable(e))),
    close: () => db.close(),
  };
}
