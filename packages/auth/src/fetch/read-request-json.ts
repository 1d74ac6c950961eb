import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { PayloadTooLargeError } from '../errors/payload-too-large-error.js';
import { concatBytes, parseJsonText } from '../http/read-json-body.js';

/**
 * Reads the body of a Web `Request` as bytes, exactly as sent (Web streams only, no Node APIs):
 * empty when there is none; a 413 over `limit` bytes, refused unread when `Content-Length`
 * already says so; a 400 when it is compressed or cannot be read.
 * @internal
 */
export async function readRequestBytes(request: Request, limit: number): Promise<Uint8Array> {
  const tooLarge = (): PayloadTooLargeError => new PayloadTooLargeError(`the request body must be at most ${limit} bytes`);
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw tooLarge();
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel();
        throw tooLarge();
      }
      chunks.push(value);
    }
  } catch (cause) {
    if (cause instanceof PayloadTooLargeError) throw cause;
    throw new InvalidRequestError('the request body could not be read', { cause });
  }
  const encoding = request.headers.get('content-encoding');
  if (encoding !== null && encoding.toLowerCase() !== 'identity' && size > 0) {
    throw new InvalidRequestError('the request body must not be compressed');
  }
  return concatBytes(chunks, size);
}

/**
 * Reads the small optional JSON body of a Web `Request`: `undefined` when empty; a 400 when it is
 * not JSON (quoting `example`) or is compressed; a 413 over `limit` bytes.
 * @internal
 */
export async function readRequestJson(request: Request, limit: number, example?: string): Promise<unknown> {
  return parseJsonText(new TextDecoder().decode(await readRequestBytes(request, limit)), example);
}
