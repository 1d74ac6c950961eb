import type { RequestInfo } from '@drops/auth';
import { requestInfoOfRequest } from '@drops/auth/adapter';
import type { Context } from 'hono';

/**
 * Where the client's address is, for a request's context: what `dropsAuth({ clientIp })` takes
 * (`undefined` when not given: no address, as a Web `Request` carries none).
 */
export type ClientIp = (c: Context) => string | null | undefined;

/**
 * What a request shows of the client for key events, as the fetch adapter takes it: the address
 * `clientIp` finds (none without it: no proxy header is read unless the app says so), and the
 * `User-Agent` header.
 * @internal
 */
export function clientInfoOf(c: Context, clientIp: ClientIp | undefined): RequestInfo {
  return requestInfoOfRequest(c.req.raw, { ip: clientIp?.(c) ?? null });
}
