import { DropsAuthError } from '@drops/auth';
import type { ErrorRequestHandler, Request } from 'express';
import { sendError } from './send-error.js';

/** Options of {@link errorHandler}. */
export interface ErrorHandlerOptions {
  /**
   * Called with every drops-auth error before it is answered, e.g. to log
   * `UnauthenticatedError.reason` (never sent to the client). Must not throw.
   */
  onError?: (error: DropsAuthError, req: Request) => void;
}

/**
 * An Express error handler that answers drops-auth errors (the uniform 401, the 503 with
 * `Retry-After`, the 400/404 of the key routes) with the error's own status, headers and body
 * bytes. Any other error is passed on with `next(err)`, to your own handler or Express's.
 * Mount it after your routes.
 *
 * @example
 * ```ts
 * app.use('/keys', auth.keysRouter());
 * app.get('/whoami', auth.requireAuth(), whoami);
 * app.use(errorHandler({ onError: (err, req) => req.log.info({ err: err.code }, 'refused') }));
 * ```
 */
export function errorHandler(options: ErrorHandlerOptions = {}): ErrorRequestHandler {
  if (options === null || typeof options !== 'object') throw new TypeError('errorHandler: options must be an object');
  const { onError } = options;
  if (onError !== undefined && typeof onError !== 'function') {
    throw new TypeError('errorHandler: onError must be a function');
  }
  return (err, req, res, next) => {
    if (!(err instanceof DropsAuthError) || res.headersSent) {
      next(err);
      return;
    }
    onError?.(err, req);
    sendError(res, err);
  };
}
