import { DropsAuthError, MethodNotAllowedError } from '@drops/auth';
import type { Context } from 'koa';
import { respondWithError } from './respond-with-error.js';

/**
 * Runs a route body and answers its drops-auth errors (400, 401, 404, 413, 429, 503) with their
 * own status, headers and bytes; other errors propagate to Koa.
 * @internal
 */
export function routeHandler<C extends Context>(handler: (ctx: C) => Promise<void>): (ctx: Context) => Promise<void> {
  return async (ctx) => {
    try {
      await handler(ctx as C);
    } catch (error) {
      if (error instanceof DropsAuthError) return respondWithError(ctx, error);
      throw error;
    }
  };
}

/** A handler answering `405` with `Allow: <allow>`. @internal */
export function methodNotAllowed(allow: readonly string[]): (ctx: Context) => void {
  return (ctx) => respondWithError(ctx, new MethodNotAllowedError(allow));
}
