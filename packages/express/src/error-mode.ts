import { DropsAuthError } from '@drops/auth';
import type { NextFunction, Response } from 'express';
import { sendError } from './send-error.js';

/**
 * How the middleware of one `dropsAuth()` answers its failures. Until `errorHandler()` is
 * created they answer a drops-auth error themselves (its status, headers and body bytes), so an
 * app that forgot the error handler still sends the uniform JSON 401 or 503, never Express's
 * HTML page with a stack trace. Once `errorHandler()` is created, failures go to `next(err)`,
 * where its `onError` sees them.
 * @internal
 */
export interface ErrorMode {
  passToNext: boolean;
}

/** Middleware created outside `dropsAuth()` answers its own failures. @internal */
export const ANSWER_DIRECTLY: Readonly<ErrorMode> = Object.freeze({ passToNext: false });

/**
 * Answers `error` or hands it on: non-drops errors always go to `next`, drops-auth errors per
 * `mode`. A response already under way is left to Express.
 * @internal
 */
export function fail(mode: Readonly<ErrorMode>, res: Response, next: NextFunction, error: unknown): void {
  if (error instanceof DropsAuthError && !mode.passToNext && !res.headersSent) {
    sendError(res, error);
    return;
  }
  next(error);
}
