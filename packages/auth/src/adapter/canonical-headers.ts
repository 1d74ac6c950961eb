import type { RouteAnswer } from '../leaked-keys/route-answer.js';

const encoder = new TextEncoder();

/** Statuses that carry no body, hence no `Content-Length` (RFC 9110, 8.6). */
const NO_BODY = new Set([204, 304]);

/**
 * The header lines of an answer in the one order every adapter sends: its own headers and its
 * `Content-Length`, names in lower case, sorted by name. Written in this order (after removing
 * any copy a route set earlier: Node keeps a header where it was first set), the uniform 401 is
 * the same bytes on every route of every adapter.
 *
 * @example
 * ```ts
 * import { canonicalHeaders } from '@drops/auth/adapter';
 * import { UnauthenticatedError } from '@drops/auth';
 *
 * canonicalHeaders(new UnauthenticatedError('missing'));
 * // [['cache-control', 'no-store'], ['content-length', '69'], ['content-type', 'application/json; charset=utf-8'], ['www-authenticate', 'Bearer realm="drops"']]
 * ```
 */
export function canonicalHeaders(answer: RouteAnswer): Array<[name: string, value: string]> {
  const headers: Array<[string, string]> = Object.entries(answer.headers).map(([name, value]) => [name.toLowerCase(), value]);
  if (!NO_BODY.has(answer.status)) headers.push(['content-length', String(encoder.encode(answer.bodyText).byteLength)]);
  return headers.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
