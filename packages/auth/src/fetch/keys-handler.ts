import type { Authenticator } from '../authenticator/create-authenticator.js';
import { answerResponse } from '../adapter/answer-response.js';
import { DropsAuthError } from '../errors/drops-auth-error.js';
import { NotFoundError } from '../errors/not-found-error.js';
import type { RequestInfo } from '../key-store/key-event.js';
import type { KeyManager } from '../keys/create-key-manager.js';
import { createKeyRoutes, type KeyRoutes } from '../key-routes/create-key-routes.js';
import type { KeyRoutesOptions } from '../key-routes/key-routes-options.js';
import type { RouteAnswer } from '../leaked-keys/route-answer.js';
import type { Principal } from '../authenticator/principal.js';
import { readRequestJson } from './read-request-json.js';
import { requestInfoOf, type ClientOrRouteContext } from './request-info.js';

/** Options of {@link keysHandler}. */
export interface KeysHandlerOptions extends KeyRoutesOptions {
  /** The path the key routes live under. Default `'/keys'`. */
  basePath?: string;
  /**
   * The client of a request, for key events, where the runtime gives no address (Next.js route
   * handlers): e.g. from a proxy header your proxy sets. Default: the second argument when it is
   * `{ ip, userAgent? }`, else no address; the `User-Agent` header. No proxy header is read unless
   * this says so.
   */
  requestInfo?: (request: Request) => RequestInfo;
}

const WHERE = 'keysHandler';

function requestInfoOption(options: KeysHandlerOptions | undefined): ((request: Request) => RequestInfo) | undefined {
  const requestInfo = options?.requestInfo;
  if (requestInfo !== undefined && typeof requestInfo !== 'function') throw new TypeError(`${WHERE}: requestInfo must be a function`);
  return requestInfo;
}

function basePathOf(options: KeysHandlerOptions | undefined): string {
  const basePath = options?.basePath ?? '/keys';
  if (typeof basePath !== 'string' || !/^\/[^?#]*[^/?#]$/.test(basePath)) {
    throw new TypeError(`${WHERE}: basePath must be a path such as "/keys", with no trailing slash`);
  }
  return basePath;
}

function routesOf(authenticator: Authenticator, keys: KeyManager, options: KeysHandlerOptions | undefined): KeyRoutes {
  if (options !== undefined && (options === null || typeof options !== 'object'))
    throw new TypeError(`${WHERE}: options must be an object`);
  const { basePath: _basePath, requestInfo: _requestInfo, ...routeOptions } = options ?? {};
  return createKeyRoutes(authenticator, keys, routeOptions, WHERE);
}

/**
 * The `/keys` routes (`KEY_ROUTES` of `@drops/auth/adapter`; what each answers:
 * https://github.com/drops-dev/drops-auth/blob/main/docs/reference-server.md) as one fetch-style handler (`Request` in, `Response` out), for Hono,
 * Bun, Deno, Next.js route handlers or a plain `fetch` server; the same semantics as the Express
 * and Koa key routers.
 *
 * Mints, revocations and a key's first use are key events carrying the client's address and
 * `User-Agent`: a `Request` has no address, so pass it as the handler's second argument, or say
 * where it is with `requestInfo`. In a Next.js route handler the second argument is Next's route
 * context: it is accepted there (the handler exports as `GET`, `POST`, … in TypeScript) and never
 * read as client info.
 *
 * Every method on every path under `basePath` is authenticated before routing, so without a
 * valid credential the answer is the uniform 401, never a 404 or 405; authenticated, other
 * methods get a 405 with `Allow` and deeper paths a 404. A path outside `basePath` is a 404.
 * A store or identity provider that cannot answer is a 503. Options are checked here, once.
 *
 * @example
 * ```ts
 * import { Hono } from 'hono';
 * import { createKeyManager, keysHandler } from '@drops/auth';
 *
 * const keys = keysHandler(authenticator, createKeyManager({ keyStore }));
 * const app = new Hono();
 * app.all('/keys', (c) => keys(c.req.raw));
 * app.all('/keys/*', (c) => keys(c.req.raw));
 * ```
 *
 * @example
 * ```ts
 * // Next.js App Router, app/keys/[[...rest]]/route.ts: every method, so that none is Next's own
 * // 405 before the credential is judged.
 * const handler = keysHandler(authenticator, keys, {
 *   requestInfo: (request) => ({ ip: request.headers.get('x-real-ip'), userAgent: request.headers.get('user-agent') }),
 * });
 * export { handler as GET, handler as HEAD, handler as POST, handler as PUT, handler as PATCH, handler as DELETE, handler as OPTIONS };
 * ```
 *
 * @example
 * ```ts
 * // Deno: the client address comes with the connection.
 * Deno.serve((request, info) => keys(request, { ip: info.remoteAddr.hostname }));
 * ```
 */
export function keysHandler(
  authenticator: Authenticator,
  keys: KeyManager,
  options?: KeysHandlerOptions,
): (request: Request, client?: ClientOrRouteContext) => Promise<Response> {
  const routes = routesOf(authenticator, keys, options);
  const basePath = basePathOf(options);
  const requestInfo = requestInfoOption(options);

  function route(request: Request, client: ClientOrRouteContext, authenticated: (principal: Principal) => void): Promise<RouteAnswer> {
    const url = new URL(request.url);
    const path = url.pathname;
    if (path !== basePath && !path.startsWith(`${basePath}/`)) throw new NotFoundError('not found');
    return routes.handle({
      method: request.method,
      path: path.slice(basePath.length),
      query: url.searchParams,
      authorization: request.headers,
      info: () => (requestInfo === undefined ? requestInfoOf(request, client) : requestInfo(request)),
      readJson: (limit) => readRequestJson(request, limit),
      authenticated,
    });
  }

  return async (request, client) => {
    let principal: Principal | null = null;
    try {
      return answerResponse(await route(request, client, (p) => (principal = p)), request.method, principal);
    } catch (error) {
      if (!(error instanceof DropsAuthError)) throw error;
      return answerResponse(error, request.method, principal);
    }
  };
}
