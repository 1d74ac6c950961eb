import type { RequestInfo } from '../key-store/key-event.js';

/**
 * The second argument Next.js (App Router) gives a route handler: the route context, `{ params }`.
 * A fetch-style handler of drops auth accepts it there, and never reads it as client info.
 */
export interface RouteContext {
  readonly params: Promise<unknown>;
}

/** What a fetch-style handler takes as its second argument: the client as the runtime knows it, or Next's route context. */
export type ClientOrRouteContext = RequestInfo | RouteContext | undefined;

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
