import { DropsAuthError, MethodNotAllowedError } from '@drops/auth';
import type { Context } from 'koa';
import { respondWithError } from './respond-with-error.js';

/**
 * Runs a route body and answers its drops-auth errors (400, 401, 404, 413, 429, 503) with their
 * own status, headers and bytes; other errors propagate to Koa.
 * @internal
 */
export function routeHandler<C extends Context>(handler: (ctx: C) => Promise<void>, onError?: OnError): (ctx: Context) => Promise<void> {
  return async (ctx) => {
    try {
      await handler(ctx as C);
    } catch (error) {
      if (error instanceof DropsAuthError) return answerError(ctx, error, onError);
      throw error;
    }
  };
}

/** What `onError` of `dropsAuth()` is called with. @internal */
export type OnError = (error: DropsAuthError, ctx: Context) => void;

/** Answers a drops-auth error once `onError` has seen it. @internal */
export function answerError(ctx: Context, error: DropsAuthError, onError: OnError | undefined): void {
  onError?.(error, ctx);
  respondWithError(ctx, error);
}

/** A handler answering `405` with `Allow: <allow>`. @internal */
export function methodNotAllowed(allow: readonly string[], onError?: OnError): (ctx: Context) => void {
  return (ctx) => answerError(ctx, new MethodNotAllowedError(allow), onError);
}
