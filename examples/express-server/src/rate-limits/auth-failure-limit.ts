import {
  authorizationOf,
  clientSubjectOf,
  RateLimitedError,
  UnauthenticatedError,
  type Authenticator,
  type AuthorizationSource,
  type HeadersLike,
  type RateLimit,
  type RateLimitStore,
} from '@drops/auth';
import { takeOrUnavailable } from './take-or-unavailable.js';

/** The scope failed authentications are counted in, per client address. */
export const AUTH_FAILURE_SCOPE = 'auth_failure';

/** Addresses remembered as over the limit at most (the soonest to end is dropped past it). */
const MAX_BLOCKED_ADDRESSES = 100_000;

/** The one answer past the limit: the same bytes (but the wait) whatever the credential was. */
function tooManyFailures(waitMs: number): RateLimitedError {
  return new RateLimitedError('too many failed authentications from this address: try again later', waitMs / 1000);
}

export interface AuthFailureLimitOptions {
  readonly store: RateLimitStore;
  readonly limit: RateLimit;
  readonly ipv6PrefixLength: number;
  readonly clock: () => number;
}

/** Whether a request sent an `Authorization` header, whatever its value (a guess, or a mistake). */
function carriesCredential(source: AuthorizationSource): boolean {
  if (source === null || source === undefined) return false;
  if (typeof source === 'string' || Array.isArray(source)) return true;
  return authorizationOf(source as HeadersLike) !== undefined;
}

/**
 * `AUTH_FAILURE_LIMIT`: wraps an authenticator so every refused credential (the uniform 401,
 * whatever the reason: unknown, revoked, expired, malformed) counts one failure for the client
 * address in `store`, shared by every instance on PostgreSQL. Once an address is past the limit,
 * its refused credential and every later request carrying one (valid ones too, so a guess that
 * hits tells nothing either) get one 429 with `Retry-After` until the window ends, answered from
 * memory: a flood from it costs no database work. The count never depends on why a credential
 * failed, so it never tells an unknown key from a revoked one. A store that cannot count is a 503.
 *
 * A request with no `Authorization` header is neither counted nor refused (its 401 as always): it
 * guesses nothing and costs no lookup, and counting it would let browsers behind one address (a
 * NAT, an office) that are merely not signed in lock that address's users out.
 */
export function limitAuthFailures(authenticator: Authenticator, options: AuthFailureLimitOptions): Authenticator {
  const { store, limit, ipv6PrefixLength, clock } = options;
  /** Subject -> when it may authenticate again (ms), for subjects known to be over the limit. */
  const blockedUntil = new Map<string, number>();

  const subjectOf = (request: (() => { ip?: string | null }) | undefined): string | null => {
    const ip = request?.().ip;
    return typeof ip === 'string' && ip !== '' ? clientSubjectOf(ip, ipv6PrefixLength) : null;
  };
  const waitOf = (subject: string): number => {
    const until = blockedUntil.get(subject);
    if (until === undefined) return 0;
    const waitMs = until - clock();
    if (waitMs > 0) return waitMs;
    blockedUntil.delete(subject);
    return 0;
  };
  const block = (subject: string, waitMs: number): void => {
    if (blockedUntil.size >= MAX_BLOCKED_ADDRESSES) blockedUntil.delete(blockedUntil.keys().next().value!);
    blockedUntil.set(subject, clock() + waitMs);
  };

  const guarded = async <T>(
    hasCredential: boolean,
    request: Parameters<Authenticator['authenticate']>[1],
    run: () => Promise<T>,
  ): Promise<T> => {
    if (!hasCredential) return run();
    // No map lookup, no address parsed, while nobody is over the limit.
    const subject = blockedUntil.size > 0 ? subjectOf(request?.request) : null;
    if (subject !== null) {
      const waitMs = waitOf(subject);
      if (waitMs > 0) throw tooManyFailures(waitMs);
    }
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof UnauthenticatedError)) throw error;
      const failing = subject ?? subjectOf(request?.request);
      if (failing === null) throw error;
      const waitMs = await takeOrUnavailable(store, AUTH_FAILURE_SCOPE, failing, limit);
      if (waitMs === 0) throw error;
      block(failing, waitMs);
      throw tooManyFailures(waitMs);
    }
  };

  return {
    authenticate: (source, request) => guarded(carriesCredential(source), request, () => authenticator.authenticate(source, request)),
    authenticateOptional: (source, request) =>
      guarded(carriesCredential(source), request, () => authenticator.authenticateOptional(source, request)),
  };
}
