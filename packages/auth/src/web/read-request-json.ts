import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { PayloadTooLargeError } from '../errors/payload-too-large-error.js';
import { parseJsonText } from '../http/read-json-body.js';

/**
 * Reads the small optional JSON body of a Web `Request` (Web streams only, no Node APIs):
 * `undefined` when empty; a 400 when it is not JSON or is compressed; a 413 over `limit` bytes,
 * refused unread when `Content-Length` already says so.
 * @internal
 */
export async function readRequestJson(request: Request, limit: number): Promise<unknown> {
  const tooLarge = (): PayloadTooLargeError => new PayloadTooLargeError(`the request body must be at most ${limit} bytes`);
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw tooLarge();
  if (request.body === null) return undefined;
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
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return parseJsonText(new TextDecoder().decode(bytes));
}
