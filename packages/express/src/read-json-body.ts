import { InvalidRequestError } from '@drops/auth';
import type { Request } from 'express';
import { PayloadTooLargeError } from './route-errors.js';

/**
 * Reads a small optional JSON body: `undefined` when there is none, the parsed value otherwise.
 * Anything that is not JSON is an `InvalidRequestError` (400), a body over `limit` bytes a
 * `PayloadTooLargeError` (413): bad input never becomes a 5xx. A body some earlier middleware
 * already parsed (`express.json()`) is used as it is.
 */
export async function readJsonBody(req: Request, limit: number): Promise<unknown> {
  if (req.body !== undefined || req.readableEnded) return fromParsed(req.body);
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) {
    req.resume();
    throw new PayloadTooLargeError(`the request body must be at most ${limit} bytes`);
  }
  const { text, size } = await readText(req, limit);
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity' && size > 0) {
    throw new InvalidRequestError('the request body must not be compressed');
  }
  return parseText(text);
}

function fromParsed(body: unknown): unknown {
  if (Buffer.isBuffer(body)) return parseText(body.toString('utf8'));
  if (typeof body === 'string') return parseText(body);
  // express.json() leaves `{}` for an empty body; treat it as no body.
  if (body !== null && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0) return undefined;
  return body;
}

function parseText(text: string): unknown {
  if (text.trim().length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new InvalidRequestError('the request body must be JSON, e.g. {"name": "ci-main"}');
  }
}

function readText(req: Request, limit: number): Promise<{ text: string; size: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer | string): void => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buffer.length;
      if (size > limit) {
        cleanup();
        // Keep reading (and dropping) the rest so the 413 can be answered on this connection.
        req.resume();
        reject(new PayloadTooLargeError(`the request body must be at most ${limit} bytes`));
        return;
      }
      chunks.push(buffer);
    };
    const onEnd = (): void => {
      cleanup();
      resolve({ text: Buffer.concat(chunks).toString('utf8'), size });
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(new InvalidRequestError('the request body could not be read', { cause: error }));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}
