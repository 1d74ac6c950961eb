/**
 * One answer of a drops-auth route as its exact bytes: status, headers and body text, what
 * `createKeyRoutes` and `createLeakedKeyRoutes` resolve. A `DropsAuthError` is one too, so an
 * adapter writes successes and failures the same way: `writeNodeAnswer(res, answer)` on a Node
 * response, `answerResponse(answer, method)` as a Web `Response` (both in the canonical header
 * order).
 *
 * @example
 * ```ts
 * import { writeNodeAnswer, type RouteAnswer } from '@drops/auth/adapter';
 * import { isDropsAuthError } from '@drops/auth';
 *
 * const answer: RouteAnswer = await routes.handle(keyRouteRequest).catch((err: unknown) => {
 *   if (isDropsAuthError(err)) return err; // the uniform 401, a 503, a JSON 4xx
 *   throw err;
 * });
 * writeNodeAnswer(res, answer); // answer.status, answer.headers, answer.bodyText, exactly
 * ```
 */
export interface RouteAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly bodyText: string;
}

/** A JSON answer, never cached. @internal */
export function jsonAnswer(status: number, body: unknown): RouteAnswer {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    bodyText: JSON.stringify(body),
  };
}
