import { checkOf, answerOfError, type AuthAnswer } from '../authenticator/authenticator-traits.js';
import type { AuthorizationSource, Authenticator } from '../authenticator/create-authenticator.js';
import { ALL_CREDENTIAL_TYPES, type CredentialType } from '../authenticator/principal.js';
import { DropsAuthError } from '../errors/drops-auth-error.js';
import type { RequestInfo } from '../key-store/key-event.js';

export type { AuthAnswer } from '../authenticator/authenticator-traits.js';

/** Options of {@link createAuthCheck}: one route's, fixed when the route is built. */
export interface AuthCheckOptions {
  /** What the route accepts, as {@link parseAuthRouteOptions} returns it. Default: both types. */
  readonly accept?: readonly CredentialType[];
  /** `true` for `optionalAuth()`: no `Authorization` header at all answers `null`, not the 401. */
  readonly optional?: boolean;
}

/**
 * One route's credential check (see {@link createAuthCheck}): the `Authorization` value (or a
 * header bag) and, for a key's first-use event, a thunk of what the request shows of the client
 * (called only when that event is written).
 */
export type AuthCheck = (authorization: AuthorizationSource, request?: () => RequestInfo) => AuthAnswer | Promise<AuthAnswer>;

/**
 * Builds a route's credential check once, for the hot path of an adapter's `requireAuth()` and
 * `optionalAuth()`. Its answer is an {@link AuthAnswer}: the principal, `null` (optional, no
 * credential) or the `DropsAuthError` to answer (the authenticator's uniform 401, or a 503), as
 * a value, never thrown. It is the value itself when it is at hand (an authenticator from
 * `createAuthenticator` over a store that answers from memory, a repeated ID token whose
 * verification is cached), so the adapter goes on in the same call, with no promise; otherwise a
 * promise of it, which rejects only with an unforeseen error (not a `DropsAuthError`). An
 * authenticator written by hand is asked through its `authenticate` or `authenticateOptional`, and
 * answers a promise. The same decisions as those two methods: they are built on the same check.
 *
 * See https://github.com/drops-dev/drops-auth/blob/main/docs/adapters.md, "Writing an adapter".
 *
 * @example
 * ```ts
 * import { DropsAuthError } from '@drops/auth';
 * import { authorizationOfNodeRequest, createAuthCheck, parseAuthRouteOptions } from '@drops/auth/adapter';
 *
 * const check = createAuthCheck(authenticator, { accept: parseAuthRouteOptions(options, authenticator, 'requireAuth()') });
 * // per request:
 * const answer = check(authorizationOfNodeRequest(req), () => requestInfoOfNodeRequest(req));
 * if (answer instanceof Promise) answer.then(finish, crash);
 * else finish(answer); // answer instanceof DropsAuthError: write it; else the principal
 * ```
 */
export function createAuthCheck(authenticator: Authenticator, options: AuthCheckOptions = {}): AuthCheck {
  const accept = options.accept ?? ALL_CREDENTIAL_TYPES;
  const required = options.optional !== true;
  const check = checkOf(authenticator);
  if (check !== undefined) {
    return (authorization, request) => {
      try {
        return check(authorization, accept, required, request);
      } catch (error) {
        return Promise.reject(error);
      }
    };
  }
  const refused = (error: unknown): AuthAnswer => {
    if (error instanceof DropsAuthError) return answerOfError(error, authenticator);
    throw error;
  };
  return (authorization, request) => {
    const authOptions = { accept, request };
    let answer: Promise<AuthAnswer>;
    try {
      answer = Promise.resolve(
        required ? authenticator.authenticate(authorization, authOptions) : authenticator.authenticateOptional(authorization, authOptions),
      );
    } catch (error) {
      answer = Promise.reject(error);
    }
    return answer.then(undefined, refused);
  };
}
