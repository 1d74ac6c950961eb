import { parseAccept, type Authenticator } from '../authenticator/create-authenticator.js';
import { DropsAuthError } from '../errors/drops-auth-error.js';
import { MethodNotAllowedError } from '../errors/method-not-allowed-error.js';
import { NotFoundError } from '../errors/not-found-error.js';
import { UnauthenticatedError } from '../errors/unauthenticated-error.js';
import { DEFAULT_KEYS_BODY_LIMIT } from '../http/read-json-body.js';
import type { RequestInfo } from '../key-store/key-event.js';
import type { KeyManager } from '../keys/create-key-manager.js';
import { mintOptionsFromBody } from '../keys/mint-options.js';
import { errorResponse } from './error-response.js';
import { readRequestJson } from './read-request-json.js';
import { requestInfoOf } from './request-info.js';

/** Options of {@link keysHandler}. */
export interface KeysHandlerOptions {
  /** Largest `POST /keys` body read, in bytes; over it a 413. Default 16 384. */
  bodyLimit?: number;
  /** The path the key routes live under. Default `'/keys'`. */
  basePath?: string;
}

const KNOWN_OPTIONS = new Set(['bodyLimit', 'basePath']);
const BOTH_CREDENTIALS = parseAccept(undefined);

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });
}

/** A `200` JSON answer to a `GET`, or its headers alone to a `HEAD`. */
function read(method: string, body: unknown): Response {
  const answer = json(200, body);
  return method === 'HEAD' ? new Response(null, answer) : answer;
}

function parseOptions(options: KeysHandlerOptions): { bodyLimit: number; basePath: string } {
  if (options === null || typeof options !== 'object') throw new TypeError('keysHandler: options must be an object');
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.has(key)) throw new TypeError(`keysHandler: unknown option "${key}"`);
  }
  const bodyLimit = options.bodyLimit ?? DEFAULT_KEYS_BODY_LIMIT;
  if (!Number.isSafeInteger(bodyLimit) || bodyLimit < 1) throw new TypeError('keysHandler: bodyLimit must be a positive integer (bytes)');
  const basePath = options.basePath ?? '/keys';
  if (typeof basePath !== 'string' || !/^\/[^?#]*[^/?#]$/.test(basePath)) {
    throw new TypeError('keysHandler: basePath must be a path such as "/keys", with no trailing slash');
  }
  return { bodyLimit, basePath };
}

/**
 * The `/keys` routes as one fetch-style handler (`Request` in, `Response` out), for Hono, Bun,
 * Deno, Next.js route handlers or a plain `fetch` server; the same semantics as the Express and
 * Koa key routers:
 *
 * - `POST /keys`: ID token only (an API key gets the uniform 401, before the body is read).
 *   Optional JSON `{"name": "ci-main"}`; anything else 400, over `bodyLimit` 413.
 *   `201 {apiKey, id, prefix, name, createdAt}`: the only time the secret is sent.
 * - `GET /keys`: `200 {"keys": [{id, prefix, name, createdAt, lastUsedAt}]}`, newest first.
 * - `GET /keys/events?cursor=&limit=`: `200 {"events": [...], "next": <cursor or null>}`, the
 *   account's key events newest first; `limit` 1 to 100 (default 50), else 400.
 * - `DELETE /keys/:id`: `204`; `404` when the account has no active key with that id; `400`
 *   when the id is not 64 lowercase hex.
 *
 * Mints, revocations and a key's first use are key events carrying the client's address and
 * `User-Agent`: a `Request` has no address, so pass it as the handler's second argument.
 *
 * Every method on every path under `basePath` is authenticated before routing, so without a
 * valid credential the answer is the uniform 401, never a 404 or 405; authenticated, other
 * methods get a 405 with `Allow` and deeper paths a 404. A path outside `basePath` is a 404.
 * A store or identity provider that cannot answer is a 503. Options are checked here, once.
 *
 * @example
 * ```ts
 * import { Hono } from 'hono';
 * import { createKeyManager, keysHandler } from '@drops/auth';
 *
 * const keys = keysHandler(authenticator, createKeyManager({ keyStore }));
 * const app = new Hono();
 * app.all('/keys', (c) => keys(c.req.raw));
 * app.all('/keys/*', (c) => keys(c.req.raw));
 * ```
 *
 * @example
 * ```ts
 * // Deno: the client address comes with the connection.
 * Deno.serve((request, info) => keys(request, { ip: info.remoteAddr.hostname }));
 * ```
 */
export function keysHandler(
  authenticator: Authenticator,
  keys: KeyManager,
  options: KeysHandlerOptions = {},
): (request: Request, client?: RequestInfo) => Promise<Response> {
  if (typeof (authenticator as Partial<Authenticator> | null)?.authenticate !== 'function') {
    throw new TypeError('keysHandler: authenticator must come from createAuthenticator()');
  }
  const manager = keys as Partial<KeyManager> | null;
  if (typeof manager?.mint !== 'function' || typeof manager.list !== 'function' || typeof manager.revoke !== 'function') {
    throw new TypeError('keysHandler: keys must come from createKeyManager()');
  }
  const { bodyLimit, basePath } = parseOptions(options);

  async function route(request: Request, client: RequestInfo | undefined): Promise<Response> {
    const url = new URL(request.url);
    const path = url.pathname;
    if (path !== basePath && !path.startsWith(`${basePath}/`)) throw new NotFoundError('not found');
    // A thunk: the authenticator asks for it only when it writes a key's first use.
    const info = (): RequestInfo => requestInfoOf(request, client);
    const principal = await authenticator.authenticate(request.headers, { accept: BOTH_CREDENTIALS, request: info });
    const rest = path.slice(basePath.length).replace(/^\/|\/$/g, '');
    const method = request.method.toUpperCase();
    if (rest === '') {
      if (method === 'POST') {
        if (principal.credential !== 'id_token') throw new UnauthenticatedError('wrong_credential_type');
        return json(201, await keys.mint(principal, mintOptionsFromBody(await readRequestJson(request, bodyLimit)), info()));
      }
      if (method === 'GET' || method === 'HEAD') return read(method, { keys: await keys.list(principal) });
      throw new MethodNotAllowedError(['GET', 'POST']);
    }
    if (rest.includes('/')) throw new NotFoundError('not found');
    if (rest === 'events') {
      if (method !== 'GET' && method !== 'HEAD') throw new MethodNotAllowedError(['GET']);
      const query = url.searchParams;
      return read(method, await keys.events(principal, { cursor: query.get('cursor') ?? undefined, limit: query.get('limit') ?? undefined }));
    }
    if (method !== 'DELETE') throw new MethodNotAllowedError(['DELETE']);
    let id: string;
    try {
      id = decodeURIComponent(rest);
    } catch {
      id = rest; // not a key id either way: revoke answers the 400
    }
    await keys.revoke(principal, id, info());
    return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
  }

  return async (request, client) => {
    try {
      return await route(request, client);
    } catch (error) {
      if (error instanceof DropsAuthError) return errorResponse(error);
      throw error;
    }
  };
}
