import type { RequestInfo } from '../key-store/key-event.js';

/**
 * The second argument Next.js (App Router) gives a route handler: the route context, `{ params }`.
 * A fetch-style handler of drops auth accepts it there, and never reads it as client info.
 */
export interface RouteContext {
  readonly params: Promise<unknown>;
}

/**
 * What a fetch-style handler takes as its second argument: the client as the runtime knows it
 * (`{ ip, userAgent? }`, a {@link RequestInfo}), Next's route context ({@link RouteContext}, never
 * read as client info), or nothing. Typed `unknown` on purpose: `next build` on Next.js 15 checks
 * that the declared type of a route handler's second parameter is assignable to the route's own
 * context type (`{ params: Promise<…> }`), which a union with `RequestInfo` or `undefined` is not;
 * `unknown` is the one type that it, Next 16 and every other runtime accept.
 *
 * @example
 * ```ts
 * const handler = keysHandler(authenticator, keys);
 * await handler(request, { ip: '203.0.113.9', userAgent: 'curl/8' }); // Bun, Deno: the client
 * export { handler as GET, handler as POST }; // Next.js: its route context, ignored
 * ```
 */
export type ClientOrRouteContext = unknown;

/** A `RequestInfo` the caller gave, never a route context (which carries `params`). */
function clientOf(second: unknown): Partial<RequestInfo> | undefined {
  if (second === null || typeof second !== 'object' || 'params' in second) return undefined;
  return 'ip' in second || 'userAgent' in second ? (second as Partial<RequestInfo>) : undefined;
}

/**
 * What a fetch-style handler knows of the client: the address the caller gives as the second
 * argument (a `Request` carries none; the framework or runtime knows it), and the `User-Agent`
 * header unless the caller gives one. Next's route context there is not client info: no address.
 *
 * @example
 * ```ts
 * import { requestInfoOfRequest } from '@drops/auth/adapter';
 *
 * requestInfoOfRequest(request, { ip: '203.0.113.7' }); // { ip: '203.0.113.7', userAgent: <User-Agent> }
 * requestInfoOfRequest(request, { params: Promise.resolve({}) }); // { ip: null, userAgent: <User-Agent> }
 * ```
 */
export function requestInfoOf(request: Request, second: unknown): RequestInfo {
  const client = clientOf(second);
  return {
    ip: client?.ip ?? null,
    userAgent: client?.userAgent !== undefined ? client.userAgent : request.headers.get('user-agent'),
  };
}
