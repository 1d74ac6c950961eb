/**
 * An error the server answers with `{"error": message}` and `status` (400, 404, 405, 409, 413,
 * 415, 429, 503). Authentication errors are the core's `DropsAuthError`s instead.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string): HttpError => new HttpError(400, message);
export const notFound = (message = 'not found'): HttpError => new HttpError(404, message);
export const conflict = (message: string): HttpError => new HttpError(409, message);
export const methodNotAllowed = (...allow: string[]): HttpError =>
  new HttpError(405, `method not allowed; use ${allow.join(', ')}`, { allow: allow.join(', ') });
