import type { AuthenticateOptions, Authenticator } from '../authenticator/create-authenticator.js';
import { answerOfError, isErrorAnswer } from '../authenticator/authenticator-traits.js';
import { parseAuthRouteOptions } from '../adapter/auth-route-options.js';
import { createAuthCheck } from '../adapter/auth-check.js';
import type { Principal } from '../authenticator/principal.js';
import { DropsAuthError } from '../errors/drops-auth-error.js';
import type { RequestInfo } from '../key-store/key-event.js';
import { answerResponse } from '../adapter/answer-response.js';
import { KEY_EXPIRATION_HEADER, keyExpirationHeader } from '../adapter/key-expiration-header.js';

/** The handler's response, with `Drops-Key-Expiration` when the principal's key expires soon (a copy when its headers are immutable). */
function withExpirationHeader(response: Response, principal: Principal | null): Response {
  const expiration = keyExpirationHeader(principal);
  if (expiration === null) return response;
  try {
    response.headers.set(KEY_EXPIRATION_HEADER, expiration);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set(KEY_EXPIRATION_HEADER, expiration);
    return copy;
  }
}
import { requestInfoOf } from './request-info.js';

/** Options of {@link withAuth}. */
export interface WithAuthOptions extends Omit<AuthenticateOptions, 'request'> {
  /** Let requests with no `Authorization` header through with `principal: null`. Default `false`. */
  optional?: boolean;
  /**
   * What the request shows of the client, for the event of a key's first use; called only when
   * that event is written. Default: no address (a `Request` carries none) and the `User-Agent` header.
   */
  requestInfo?: (request: Request) => RequestInfo;
}

/** A fetch-style handler that receives the authenticated principal. */
export type AuthenticatedHandler<P extends Principal | null, Args extends unknown[]> = (
  request: Request,
  principal: P,
  ...rest: Args
) => Response | Promise<Response>;

/**
 * Authenticates a Web `Request` (Hono, Next.js route handlers, Bun, Deno, Cloudflare Workers).
 * Resolves the principal or rejects with a `DropsAuthError` (see {@link respondWithError}). Unless
 * `options.request` says otherwise, a key's first use is recorded with the `User-Agent` header.
 *
 * @example
 * ```ts
 * const principal = await authenticateRequest(authenticator, request, { accept: ['id_token'] });
 * ```
 */
export function authenticateRequest(authenticator: Authenticator, request: Request, options?: AuthenticateOptions): Promise<Principal> {
  return authenticator.authenticate(request.headers, {
    ...options,
    request: options?.request ?? (() => requestInfoOf(request, undefined)),
  });
}

/**
 * Wraps a fetch-style handler so it runs only for authenticated requests; every failure answers
 * with the error's own response (the uniform 401, or 503). A `DropsAuthError` the handler itself
 * throws (e.g. a `NotFoundError` from `keys.revoke`) is answered the same way, with its status,
 * headers and body, not left to the framework's 500; any other error propagates. Options are
 * checked once, here.
 *
 * @example
 * ```ts
 * export const GET = withAuth(authenticator, {}, async (request, principal) =>
 *   Response.json({ accountId: principal.accountId }),
 * );
 * ```
 */
export function withAuth<Args extends unknown[]>(
  authenticator: Authenticator,
  options: WithAuthOptions & { optional: true },
  handler: AuthenticatedHandler<Principal | null, Args>,
): (request: Request, ...rest: Args) => Promise<Response>;
export function withAuth<Args extends unknown[]>(
  authenticator: Authenticator,
  options: WithAuthOptions,
  handler: AuthenticatedHandler<Principal, Args>,
): (request: Request, ...rest: Args) => Promise<Response>;
export function withAuth<Args extends unknown[]>(
  authenticator: Authenticator,
  options: WithAuthOptions,
  handler: AuthenticatedHandler<Principal, Args> | AuthenticatedHandler<Principal | null, Args>,
): (request: Request, ...rest: Args) => Promise<Response> {
  const accept = parseAuthRouteOptions({ accept: options.accept }, authenticator, 'withAuth');
  const optional = options.optional === true;
  const { requestInfo } = options;
  if (requestInfo !== undefined && typeof requestInfo !== 'function') throw new TypeError('withAuth: requestInfo must be a function');
  const check = createAuthCheck(authenticator, { accept, optional });
  return async (request, ...rest) => {
    let principal: Principal | null = null;
    try {
      const checked = check(
        request.headers,
        requestInfo === undefined ? () => requestInfoOf(request, undefined) : () => requestInfo(request),
      );
      const answer = checked instanceof Promise ? await checked : checked;
      if (isErrorAnswer(answer)) return answerResponse(answer, 'GET');
      principal = answer;
      return withExpirationHeader(await (handler as AuthenticatedHandler<Principal | null, Args>)(request, principal, ...rest), principal);
    } catch (error) {
      // The handler's own drops-auth error (a 404 of `keys.revoke`) warns of the key's expiry too.
      if (error instanceof DropsAuthError) return answerResponse(answerOfError(error, authenticator), 'GET', principal);
      throw error;
    }
  };
}
