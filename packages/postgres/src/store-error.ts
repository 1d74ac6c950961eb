import { UnavailableError } from '@drops/auth';

/** A PostgreSQL error code, when the error came from the server (pg and PGlite both set `code`). */
function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** True for `unique_violation`: the row already exists, which is the caller's problem, not an outage. */
export function isUniqueViolation(error: unknown): boolean {
  return sqlState(error) === '23505';
}

/** What a failed mint rejects with: a plain `Error` for an id that exists, else {@link unavailable}. */
export function creationError(error: unknown): Error {
  return isUniqueViolation(error) ? new Error('a key with this id already exists', { cause: error }) : unavailable(error);
}

/**
 * What a failed store call rejects with: the database could not answer, so the request is a 503
 * (`UnavailableError('key_store')`), never "not found" and never a success.
 */
export function unavailable(error: unknown): UnavailableError {
  return error instanceof UnavailableError ? error : new UnavailableError('key_store', { cause: error });
}
