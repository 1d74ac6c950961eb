import { MethodNotAllowedError } from '@drops/auth';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { fail, type ErrorMode } from './error-mode.js';

/**
 * An async route body as an Express handler whose failures are answered (or passed on) per
 * `mode`: Express 4 does not catch a rejected promise, so every route body goes through here.
 * @internal
 */
export function routeHandler(mode: Readonly<ErrorMode>, handler: (req: Request, res: Response) => Promise<void>): RequestHandler {
  return (req, res, next: NextFunction) => {
    Promise.resolve()
      .then(() => handler(req, res))
      .catch((error: unknown) => fail(mode, res, next, error));
  };
}

/** A handler answering `405` with `Allow: <allow>` (per `mode`). @internal */
export function methodNotAllowed(mode: Readonly<ErrorMode>, ...allow: string[]): RequestHandler {
  return (_req, res, next) => fail(mode, res, next, new MethodNotAllowedError(allow));
}
