import type { RequestInfo } from '../key-store/key-event.js';

/**
 * What a fetch-style handler knows of the client: the address the caller gives (a `Request`
 * carries none; the framework or runtime knows it), and the `User-Agent` header unless the
 * caller gives one.
 * @internal
 */
export function requestInfoOf(request: Request, client: RequestInfo | undefined): RequestInfo {
  return {
    ip: client?.ip ?? null,
    userAgent: client?.userAgent !== undefined ? client.userAgent : request.headers.get('user-agent'),
  };
}
