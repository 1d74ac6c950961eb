import type { RequestInfo } from '@drops/auth';
import { requestInfoOfNodeRequest } from '@drops/auth/adapter';
import type { Request } from 'express';

/**
 * What an Express request shows of the client, for key events: `req.ip` (which follows the app's
 * `trust proxy` setting) and the `User-Agent` header. Called when an event is written, never on
 * the hot path of a check.
 * @internal
 */
export function requestInfoOf(req: Request): RequestInfo {
  return requestInfoOfNodeRequest(req, req.ip ?? null);
}
