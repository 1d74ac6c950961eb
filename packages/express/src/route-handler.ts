import { MethodNotAllowedError } from '@drops/auth';
import type { Request, RequestHandler, Response } from 'express';
import type { Fail } from './fail.js';

/**
 * An async route body as an Express handler whose failures go through `fail`: Express 4 does not
 * catch a rejected promise, so every route body goes through here.
 * @internal
 */
export function routeHandler(fail: Fail, handler: (req: Request, res: Response) => Promise<void>): RequestHandler {
  return (req, res, next) => {
    Promise.resolve()
      .then(() => handler(req, res))
      .catch((error: unknown) => fail(req, res, next, error));
  };
}

/** A handler answering `405` with `Allow: <allow>`. @internal */
export function methodNotAllowed(fail: Fail, ...allow: string[]): RequestHandler {
  return (req, res, next) => fail(req, res, next, new MethodNotAllowedError(allow));
}
