import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { PayloadTooLargeError } from '../errors/payload-too-large-error.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * `chunks` (`size` bytes in all) as one array, without `Buffer`: the core runs on workerd too.
 * @internal
 */
export function concatBytes(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const whole = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return whole;
}

/** Default largest `POST /keys` body, in bytes (a key request is `{"name": "…"}`). */
export const DEFAULT_KEYS_BODY_LIMIT = 16 * 1024;

/** What {@link readBodyBytes} and {@link readJsonBody} need to know of the request besides its body. */
export interface ReadJsonBodyOptions {
  /** Largest body read, in bytes; a larger one is a 413. */
  readonly limit: number;
  /** The `Content-Length` header, if any: a declared size over the limit is refused unread. */
  readonly contentLength?: string | undefined;
  /** The `Content-Encoding` header, if any: compressed bodies are refused (400). */
  readonly contentEncoding?: string | undefined;
  /** A JSON body the route takes, quoted in the 400 for a body that is not JSON. Default `{"name": "ci-main"}`. */
  readonly example?: string | undefined;
}

/**
 * Reads a request body from a Node request stream (or any async iterable of chunks) as bytes,
 * exactly as sent: for a signature over the raw body, and under {@link readJsonBody}. One over
 * `limit` bytes is a `PayloadTooLargeError` (413), refused unread when `Content-Length` already
 * says so; a compressed one, or a stream that fails, an `InvalidRequestError` (400).
 *
 * @example
 * ```ts
 * const raw = await readBodyBytes(req, { limit: 1024 * 1024, contentLength: req.headers['content-length'] });
 * ```
 */
export async function readBodyBytes(body: AsyncIterable<Uint8Array | string>, options: ReadJsonBodyOptions): Promise<Uint8Array> {
  const { limit } = options;
  const tooLarge = (): PayloadTooLargeError => new PayloadTooLargeError(`the request body must be at most ${limit} bytes`);
  if (options.contentLength !== undefined && Number(options.contentLength) > limit) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    // Past the limit the rest is read and dropped rather than the loop broken: breaking would
    // destroy the request stream, and the client would see a reset instead of the 413.
    for await (const chunk of body) {
      const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
      size += bytes.byteLength;
      if (size <= limit) chunks.push(bytes.slice()); // a copy: a stream may reuse its chunk
    }
  } catch (cause) {
    throw new InvalidRequestError('the request body could not be read', { cause });
  }
  if (size > limit) throw tooLarge();
  const encoding = options.contentEncoding;
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity' && size > 0) {
    throw new InvalidRequestError('the request body must not be compressed');
  }
  return concatBytes(chunks, size);
}

/**
 * Reads a small optional JSON body from a Node request stream (or any async iterable of chunks),
 * for the `/keys` routes of every adapter. Resolves `undefined` for an empty body and the parsed
 * value otherwise. A body that is not JSON, or compressed, is an `InvalidRequestError` (400); one
 * over `limit` bytes a `PayloadTooLargeError` (413): bad input never becomes a 5xx.
 *
 * @example
 * ```ts
 * const body = await readJsonBody(req, { limit: DEFAULT_KEYS_BODY_LIMIT, contentLength: req.headers['content-length'] });
 * const minted = await keys.mint(principal, body);
 * ```
 */
export async function readJsonBody(body: AsyncIterable<Uint8Array | string>, options: ReadJsonBodyOptions): Promise<unknown> {
  return parseJsonText(decoder.decode(await readBodyBytes(body, options)), options.example);
}

/**
 * Parses a JSON request body already read as text: `undefined` when blank, a 400 when not JSON
 * (quoting `example`, a body the route takes).
 *
 * @example
 * ```ts
 * parseJsonText('{"name":"ci"}'); // { name: 'ci' }
 * parseJsonText('');              // undefined
 * ```
 */
export function parseJsonText(text: string, example = '{"name": "ci-main"}'): unknown {
  if (text.trim().length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new InvalidRequestError(`the request body must be JSON, e.g. ${example}`);
  }
}
