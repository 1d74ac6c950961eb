import { DropsAuthError, type Authenticator } from '@drops/auth';
import { answerOfError, writeNodeAnswer } from '@drops/auth/adapter';
import type { NextFunction, Request, Response } from 'express';

/** How the middleware of one `dropsAuth()` ends a request that failed. @internal */
export type Fail = (req: Request, res: Response, next: NextFunction, error: unknown) => void;

/**
 * A drops-auth error is answered here, with its exact bytes (after `onError` has seen it), so an
 * app never sends Express's HTML page for a 401 or 503; any other error, or one after the answer
 * has started, goes to `next(err)`. An error after authentication (`req.auth` set) carries the
 * expiry warning as every other answer to the request does; a 401 is the authenticator's, from
 * wherever it was thrown (`principalOf` included).
 * @internal
 */
export function failWith(authenticator: Authenticator, onError: ((error: DropsAuthError, req: Request) => void) | undefined): Fail {
  return (req, res, next, error) => {
    if (!(error instanceof DropsAuthError) || res.headersSent) {
      next(error);
      return;
    }
    const answer = answerOfError(error, authenticator);
    onError?.(answer, req);
    writeNodeAnswer(res, answer, req.auth);
  };
}
