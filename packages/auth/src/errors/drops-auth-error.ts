/**
 * A JSON error body, the shape every drops-auth failure answers with.
 */
export interface ErrorBody {
  readonly error: string;
}

/**
 * The one error hierarchy of drops-auth. Every error knows the HTTP answer it stands for, so
 * adapters never build an auth response by hand: they send `status`, `headers` and `body`.
 *
 * Messages and bodies never contain a secret or an ID token.
 *
 * @example
 * ```ts
 * try {
 *   await authenticator.authenticate(headers);
 * } catch (err) {
 *   if (err instanceof DropsAuthError) {
 *     res.writeHead(err.status, err.headers).end(JSON.stringify(err.body));
 *   } else throw err;
 * }
 * ```
 */
export abstract class DropsAuthError extends Error {
  /** A stable machine-readable code, e.g. `ERR_UNAUTHENTICATED`. */
  abstract readonly code: string;
  /** The HTTP status this error answers with. */
  abstract readonly status: number;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = this.constructor.name;
  }

  /** HTTP headers to send with the answer (always includes `content-type`). */
  get headers(): Record<string, string> {
    return { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };
  }

  /** The JSON body to send. */
  get body(): ErrorBody {
    return { error: this.message };
  }

  /** The body serialised, byte-for-byte what goes on the wire. */
  get bodyText(): string {
    return JSON.stringify(this.body);
  }
}
