import { readBodyBytes, readJsonBody } from '@drops/auth/adapter';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The body stream each request's content-type parser was handed (after the app's `preParsing` hooks). */
const payloads = new WeakMap<FastifyRequest, AsyncIterable<Uint8Array | string>>();

/**
 * Replaces, inside a plugin's own (encapsulated) context, Fastify's body parsers by one that
 * reads nothing: the route reads the body itself once the credential is judged, so a malformed or
 * oversized body without a valid credential is the uniform 401, never Fastify's 400 or 413, and
 * GitHub's signature is checked over the exact bytes. The app's parsers are untouched.
 * @internal
 */
export function leaveBodiesUnread(instance: FastifyInstance): void {
  instance.removeAllContentTypeParsers();
  instance.addContentTypeParser(
    '*',
    (request: FastifyRequest, payload: AsyncIterable<Uint8Array | string>, done: (error: null) => void) => {
      payloads.set(request, payload);
      done(null);
    },
  );
}

function bodyOf(request: FastifyRequest): AsyncIterable<Uint8Array | string> {
  return payloads.get(request) ?? request.raw;
}

function headerOf(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The JSON body of a request through the core's `readJsonBody` (400 for non-JSON, quoting
 * `example`, or compressed; 413 over `limit`; `undefined` when empty).
 * @internal
 */
export function readKeysBody(request: FastifyRequest, limit: number, example?: string): Promise<unknown> {
  return readJsonBody(bodyOf(request), {
    limit,
    contentLength: headerOf(request, 'content-length'),
    contentEncoding: headerOf(request, 'content-encoding'),
    example,
  });
}

/**
 * The body exactly as sent, for a signature over it (413 over `limit`, 400 when compressed).
 * @internal
 */
export function readRawBody(request: FastifyRequest, limit: number): Promise<Uint8Array> {
  return readBodyBytes(bodyOf(request), {
    limit,
    contentLength: headerOf(request, 'content-length'),
    contentEncoding: headerOf(request, 'content-encoding'),
  });
}
