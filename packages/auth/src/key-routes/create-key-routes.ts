import { parseAccept, type AuthorizationSource, type Authenticator } from '../authenticator/create-authenticator.js';
import { answerOfError, assertVerifiesIdTokens } from '../authenticator/authenticator-traits.js';
import type { Principal } from '../authenticator/principal.js';
import { MethodNotAllowedError } from '../errors/method-not-allowed-error.js';
import { NotFoundError } from '../errors/not-found-error.js';
import { UnauthenticatedError } from '../errors/unauthenticated-error.js';
import type { RequestInfo } from '../key-store/key-event.js';
import type { KeyManager } from '../keys/create-key-manager.js';
import { mintOptionsFromBody } from '../keys/mint-options.js';
import type { RollOptions } from '../keys/roll-options.js';
import { jsonAnswer, type RouteAnswer } from '../leaked-keys/route-answer.js';
import { parseKeyRoutesOptions, type KeyRoutesOptions } from './key-routes-options.js';

/** What the `/keys` routes need of a request, from any framework. */
export interface KeyRouteRequest {
  /** The request method, any case. */
  readonly method: string;
  /** The path below where the routes are mounted: `''` or `'/'` for `/keys` itself, `'/events'`, `'/<id>'`. */
  readonly path: string;
  /** The query parameters (`cursor`, `limit` of `GET /keys/events`). */
  readonly query: { get(name: string): string | null };
  /** The `Authorization` value(s): every value when there are several (see `authorizationOfNodeRequest`), or a `Headers`. */
  readonly authorization: AuthorizationSource;
  /** The client's address and `User-Agent`, asked for only when an event is written. */
  info(): RequestInfo;
  /** The body as JSON, `undefined` when empty (a body parser may have read it already); 400 for non-JSON, 413 over `limit`. */
  readJson(limit: number): Promise<unknown>;
  /**
   * Told who the caller is once the credential is judged, before routing: keep it for the answer
   * writers (the expiry warning, on errors too) and e.g. as `req.auth` for access logs.
   */
  authenticated?(principal: Principal): void;
}

/**
 * The framework-free core of the `/keys` routes, which `keysHandler` (fetch) and the `keysRouter`
 * of every adapter are glue over: one place for the routes, the 404/405 rules and the order of
 * the checks (credential, then route, then body).
 */
export interface KeyRoutes {
  /** Resolves the answer to write, or rejects with a `DropsAuthError` to answer as such. */
  handle(request: KeyRouteRequest): Promise<RouteAnswer>;
}

const BOTH_CREDENTIALS = parseAccept(undefined);
const REVOKED: RouteAnswer = Object.freeze({ status: 204, headers: Object.freeze({ 'cache-control': 'no-store' }), bodyText: '' });

/**
 * The route below the mount point: `''` (the root), `'events'`, a key id, a key id and `'roll'`,
 * or `null` (anything deeper: a 404).
 */
function routeOf(path: string): { readonly rest: string; readonly roll: boolean } | null {
  const parts = path.replace(/^\/|\/$/g, '').split('/');
  if (parts.length === 1) return { rest: parts[0]!, roll: false };
  return parts.length === 2 && parts[0] !== '' && parts[0] !== 'events' && parts[1] === 'roll' ? { rest: parts[0]!, roll: true } : null;
}

/**
 * Whether a request to the `/keys` routes needs an ID token: `POST /keys` (mint), `POST
 * /keys/<id>/roll` (it mints), `DELETE /keys` (revoke all) and every method of `/keys/webhook`
 * (its secret signs what the account is told). There an API key is the uniform 401,
 * before a byte of the body is read. `path` is below the mount point, as
 * {@link KeyRouteRequest.path}: for an adapter that must judge a request the core never sees (a
 * body its framework's parser refused).
 *
 * @example
 * ```ts
 * isIdTokenOnlyKeyRoute('POST', `/${keyId}/roll`); // true
 * isIdTokenOnlyKeyRoute('GET', '/'); // false
 * ```
 */
export function isIdTokenOnlyKeyRoute(method: string, path: string): boolean {
  const target = routeOf(path);
  const m = method.toUpperCase();
  if (target === null) return false;
  if (target.roll) return m === 'POST';
  if (target.rest === 'webhook') return true;
  return target.rest === '' && (m === 'POST' || m === 'DELETE');
}

function decodeId(rest: string): string {
  try {
    return decodeURIComponent(rest);
  } catch {
    return rest; // not a key id either way: revoke answers the 400
  }
}

/**
 * Builds the `/keys` routes for one authenticator and key manager; options are checked here, once
 * (a mistake, or an authenticator without an `idTokenVerifier`, is a `TypeError` naming `where`):
 *
 * - `POST /keys`: ID token only (an API key is the uniform 401, before the body is read).
 *   Optional JSON `{"name": "ci-main", "expiresAt": "…"}`; anything else 400, over `bodyLimit` 413.
 *   `201` with the minted key: the only time the secret is sent.
 * - `GET /keys` (and `HEAD`): `200 {"keys": [...]}`, newest first.
 * - `GET /keys/events?cursor=&limit=`: `200 {"events": [...], "next": <cursor or null>}`.
 * - `DELETE /keys/:id`: `204`; `404` for no active key of the caller's with that id; `400` for an
 *   id that is not 64 lowercase hex.
 * - `POST /keys/:id/roll`: ID token only (the uniform 401 for an API key, before the body is read).
 *   Optional JSON `{"graceSeconds": 3600}` (default 86 400, at most 604 800): `201` with the new
 *   key as a mint answers it plus `replaces`; the old key works until the grace ends. `404` as for
 *   `DELETE`, `409` for a key rolled before.
 * - `DELETE /keys`: ID token only: revokes every active key of the account, `200 {"revoked": n}`
 *   once no instance accepts any of them.
 * - `GET|PUT|DELETE /keys/webhook` (ID token only): `200 {"url": … or null}`; `PUT {"url"}` answers
 *   `200 {"url", "secret"}` (the `whsec_` secret, shown once); `DELETE` `204`. A 404 when the key
 *   manager has no `webhooks` option.
 *
 * The expiry warning (`Drops-Key-Expiration`, to an API key that expires within 7 days) is the
 * answer writers' part: keep the principal `authenticated` is told and hand it to
 * `writeNodeAnswer`/`answerResponse` with the answer or the error, so both carry it.
 *
 * Every method on every path is authenticated first, so without a valid credential the answer is
 * the uniform 401, never a 404 or 405; authenticated, another method is a 405 with `Allow` and a
 * deeper path a 404.
 *
 * @example
 * ```ts
 * import { createKeyRoutes } from '@drops/auth/adapter';
 *
 * const routes = createKeyRoutes(authenticator, keys, { bodyLimit: 4096 }, 'myKeysRouter');
 * const answer = await routes.handle({
 *   method: 'GET',
 *   path: '/',
 *   query: new URLSearchParams(),
 *   authorization: 'Bearer hp_…',
 *   info: () => ({ ip: '127.0.0.1', userAgent: null }),
 *   readJson: async () => undefined,
 * }); // { status: 200, headers: {...}, bodyText: '{"keys":[...]}' }
 * ```
 */
export function createKeyRoutes(
  authenticator: Authenticator,
  keys: KeyManager,
  options: KeyRoutesOptions | undefined,
  where: string,
): KeyRoutes {
  if (typeof (authenticator as Partial<Authenticator> | null)?.authenticate !== 'function') {
    throw new TypeError(`${where}: authenticator must come from createAuthenticator()`);
  }
  const manager = keys as Partial<KeyManager> | null;
  if (
    typeof manager?.mint !== 'function' ||
    typeof manager.list !== 'function' ||
    typeof manager.revoke !== 'function' ||
    typeof manager.roll !== 'function' ||
    typeof manager.revokeAll !== 'function'
  ) {
    throw new TypeError(`${where}: keys must come from createKeyManager()`);
  }
  const { bodyLimit } = parseKeyRoutesOptions(options, where);
  // Only an ID token mints: without a verifier, `POST /keys` would be a 401 for everyone.
  assertVerifiesIdTokens(authenticator, where);

  async function root(method: string, principal: Principal, request: KeyRouteRequest): Promise<RouteAnswer> {
    if (method === 'POST') {
      const body = await request.readJson(bodyLimit);
      return jsonAnswer(201, await keys.mint(principal, mintOptionsFromBody(body), request.info()));
    }
    if (method === 'GET' || method === 'HEAD') return jsonAnswer(200, { keys: await keys.list(principal) });
    if (method === 'DELETE') return jsonAnswer(200, await keys.revokeAll(principal, request.info()));
    throw new MethodNotAllowedError(['GET', 'POST', 'DELETE']);
  }

  async function roll(method: string, principal: Principal, id: string, request: KeyRouteRequest): Promise<RouteAnswer> {
    if (method !== 'POST') throw new MethodNotAllowedError(['POST']);
    const body = await request.readJson(bodyLimit);
    return jsonAnswer(201, await keys.roll(principal, id, body as RollOptions | undefined, request.info()));
  }

  async function events(method: string, principal: Principal, request: KeyRouteRequest): Promise<RouteAnswer> {
    if (method !== 'GET' && method !== 'HEAD') throw new MethodNotAllowedError(['GET']);
    const { query } = request;
    const page = { cursor: query.get('cursor') ?? undefined, limit: query.get('limit') ?? undefined };
    return jsonAnswer(200, await keys.events(principal, page));
  }

  async function webhook(method: string, principal: Principal, request: KeyRouteRequest): Promise<RouteAnswer> {
    if (method === 'GET' || method === 'HEAD') return jsonAnswer(200, await keys.webhook.get(principal));
    if (method === 'PUT') return jsonAnswer(200, await keys.webhook.set(principal, await request.readJson(bodyLimit)));
    if (method !== 'DELETE') throw new MethodNotAllowedError(['GET', 'PUT', 'DELETE']);
    await keys.webhook.remove(principal);
    return REVOKED;
  }

  return {
    async handle(request) {
      try {
        const principal = await authenticator.authenticate(request.authorization, {
          accept: BOTH_CREDENTIALS,
          request: () => request.info(),
        });
        request.authenticated?.(principal);
        return await route(principal, request);
      } catch (error) {
        // The key manager's 401s (an old login) answer the authenticator's bytes too.
        throw answerOfError(error, authenticator);
      }
    },
  };

  async function route(principal: Principal, request: KeyRouteRequest): Promise<RouteAnswer> {
    const method = request.method.toUpperCase();
    // Refused before a byte of the body is read: a bad body must not answer 400 to an API key.
    if (principal.credential !== 'id_token' && isIdTokenOnlyKeyRoute(method, request.path)) {
      throw new UnauthenticatedError('wrong_credential_type');
    }
    const target = routeOf(request.path);
    if (target === null) throw new NotFoundError('not found');
    const { rest } = target;
    if (target.roll) return roll(method, principal, decodeId(rest), request);
    if (rest === '') return root(method, principal, request);
    if (rest === 'events') return events(method, principal, request);
    if (rest === 'webhook') return webhook(method, principal, request);
    if (method !== 'DELETE') throw new MethodNotAllowedError(['DELETE']);
    await keys.revoke(principal, decodeId(rest), request.info());
    return REVOKED;
  }
}
