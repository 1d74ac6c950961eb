import type { RequestInfo } from '@drops/auth';
import { requestInfoOfNodeRequest } from '@drops/auth/adapter';
import type { FastifyRequest } from 'fastify';

/**
 * What a Fastify request shows of the client, for key events: `request.ip` (which follows the
 * app's `trustProxy` setting) and the `User-Agent` header. Called when an event is written, never
 * on the hot path of a check.
 * @internal
 */
export function requestInfoOf(request: FastifyRequest): RequestInfo {
  return requestInfoOfNodeRequest(request.raw, request.ip || null);
}
