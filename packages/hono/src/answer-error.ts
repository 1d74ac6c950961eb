import { DropsAuthError, type Principal } from '@drops/auth';
import { answerResponse } from '@drops/auth/adapter';
import type { Context } from 'hono';

/** What `onError` of `dropsAuth()` is called with. @internal */
export type OnError = (error: DropsAuthError, c: Context) => void;

/**
 * The answer to a drops-auth error once `onError` has seen it: the core's status, headers in the
 * kit's order and exact body bytes (the uniform 401 is the same bytes as every adapter's); after
 * authentication, the expiry warning for the key in `c.get('auth')`, as on every other answer.
 * @internal
 */
export function answerError(c: Context, error: DropsAuthError, onError: OnError | undefined): Response {
  onError?.(error, c);
  return answerResponse(error, c.req.method, c.get('auth') as Principal | null | undefined);
}

/**
 * Runs a route body and answers its drops-auth errors (400, 401, 404, 405, 413, 429, 503) with
 * their own status, headers and bytes; other errors propagate to Hono's `onError`.
 * @internal
 */
export async function answeringErrors(c: Context, onError: OnError | undefined, route: () => Promise<Response>): Promise<Response> {
  try {
    return await route();
  } catch (error) {
    if (error instanceof DropsAuthError) return answerError(c, error, onError);
    throw error;
  }
}
