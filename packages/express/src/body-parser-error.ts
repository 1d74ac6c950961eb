import { InvalidRequestError, PayloadTooLargeError, type DropsAuthError } from '@drops/auth';

/** The `type`s `body-parser` (`express.json()`, `express.urlencoded()`, …) gives its errors. */
const BODY_PARSER_TYPES = new Set([
  'entity.parse.failed',
  'entity.too.large',
  'entity.verify.failed',
  'encoding.unsupported',
  'charset.unsupported',
  'request.aborted',
  'request.size.invalid',
  'stream.encoding.set',
  'stream.not.readable',
  'parameters.too.many',
]);

/**
 * The drops-auth error (a JSON 400 or 413) for an error of Express's body parsers, or `null` for
 * any other error. Only the status is kept: the parser's message may quote the body.
 * @internal
 */
export function bodyParserError(error: unknown): DropsAuthError | null {
  const e = error as { type?: unknown; status?: unknown; code?: unknown } | null;
  // A compressed body that does not inflate is zlib's error, passed on with a 400 and no `type`.
  const badCompression = e?.status === 400 && typeof e.code === 'string' && e.code.startsWith('Z_');
  if (!badCompression && (typeof e?.type !== 'string' || !BODY_PARSER_TYPES.has(e.type))) return null;
  if (e.status === 413) return new PayloadTooLargeError('the request body is too large');
  return new InvalidRequestError('the request body could not be read: send JSON, e.g. {"name": "ci-main"}');
}
