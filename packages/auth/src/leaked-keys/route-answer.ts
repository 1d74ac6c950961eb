/**
 * One answer of a drops-auth route as its exact bytes: status, headers and body text. A
 * `DropsAuthError` is one too, so an adapter writes successes and failures the same way.
 * @internal
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
