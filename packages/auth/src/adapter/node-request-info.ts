import type { RequestInfo } from '../key-store/key-event.js';
import type { NodeRequestLike } from '../authenticator/parse-authorization.js';

/** The parts of Node's `IncomingMessage` that {@link requestInfoOfNodeRequest} reads. */
export interface NodeClientLike extends NodeRequestLike {
  readonly socket?: { readonly remoteAddress?: string | undefined } | null;
}

/**
 * What a Node request shows of the client, for key events: the socket's address (unless the
 * framework knows better, e.g. Express's `req.ip` behind a trusted proxy: pass it as `ip`) and the
 * `User-Agent` header. No proxy header is read here: trusting one is the app's decision.
 *
 * @example
 * ```ts
 * import { requestInfoOfNodeRequest } from '@drops/auth/adapter';
 *
 * const info = requestInfoOfNodeRequest(req);            // { ip: '127.0.0.1', userAgent: 'curl/8' }
 * const behindProxy = requestInfoOfNodeRequest(req, req.ip); // Express with `trust proxy`
 * ```
 */
export function requestInfoOfNodeRequest(req: NodeClientLike, ip?: string | null): RequestInfo {
  const agent = req.headers['user-agent'];
  return {
    ip: ip !== undefined ? ip : (req.socket?.remoteAddress ?? null),
    userAgent: typeof agent === 'string' ? agent : null,
  };
}
