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
import { KEY_ROUTES, keyRouteFor, keyRoutesAt, matchKeyRoutePath, type KeyRouteName } from './key-route-table.js';

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

/** What a route's handler is given: the caller, the request, the `:id` (decoded) and the body read. */
interface RouteCall {
  readonly principal: Principal;
  readonly request: KeyRouteRequest;
  readonly id: string;
  readonly body: unknown;
}
const REVOKED: RouteAnswer = Object.freeze({ status: 204, headers: Object.freeze({ 'cache-control': 'no-store' }), bodyText: '' });

/**
 * Whether a request to the `/keys` routes needs an ID token ({@link KEY_ROUTES}): there an API key
 * is the uniform 401, before a byte of the body is read. `path` is below the mount point, as
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
  const match = matchKeyRoutePath(path);
  if (match === null) return false;
  const route = keyRouteFor(method.toUpperCase(), match.path);
  if (route !== null) return route[1].credentials === 'id_token';
  return keyRoutesAt(match.path).every(([, r]) => r.credentials === 'id_token');
}

function decodeId(rest: string): string {
  try {
    return decodeURIComponent(rest);
  } catch {
    return rest; // not a key id either way: revoke answers the 400
  }
}

/**
 * Builds the `/keys` routes ({@link KEY_ROUTES}; what each answers: https://github.com/drops-dev/drops-auth/blob/main/docs/reference-server.md) for
 * one authenticator and key manager; options are checked here, once (a mistake, or an
 * authenticator without an `idTokenVerifier`, is a `TypeError` naming `where`). `/keys/webhook` is a 404 when the key manager has no `webhooks` option.
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

  // One handler per route of KEY_ROUTES; `body` is read only for a route that takes one.
  const handlers: { readonly [K in KeyRouteName]: (call: RouteCall) => Promise<RouteAnswer> } = {
    list: async ({ principal }) => jsonAnswer(200, { keys: await keys.list(principal) }),
    mint: async ({ principal, request, body }) => jsonAnswer(201, await keys.mint(principal, mintOptionsFromBody(body), request.info())),
    revokeAll: async ({ principal, request }) => jsonAnswer(200, await keys.revokeAll(principal, request.info())),
    events: async ({ principal, request: { query } }) =>
      jsonAnswer(200, await keys.events(principal, { cursor: query.get('cursor') ?? undefined, limit: query.get('limit') ?? undefined })),
    webhook: async ({ principal }) => jsonAnswer(200, await keys.webhook.get(principal)),
    setWebhook: async ({ principal, body }) => jsonAnswer(200, await keys.webhook.set(principal, body)),
    removeWebhook: async ({ principal }) => {
      await keys.webhook.remove(principal);
      return REVOKED;
    },
    revoke: async ({ principal, request, id }) => {
      await keys.revoke(principal, id, request.info());
      return REVOKED;
    },
    roll: async ({ principal, request, id, body }) =>
      jsonAnswer(201, await keys.roll(principal, id, body as RollOptions | undefined, request.info())),
  };
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
    const match = matchKeyRoutePath(request.path);
    if (match === null) throw new NotFoundError('not found');
    const found = keyRouteFor(method, match.path);
    if (found === null) throw new MethodNotAllowedError(keyRoutesAt(match.path).map(([, r]) => r.method));
    const [name, { body }] = found;
    return handlers[name]({
      principal,
      request,
      id: decodeId(match.id ?? ''),
      body: body === null ? undefined : await request.readJson(bodyLimit),
    });
  }
}
