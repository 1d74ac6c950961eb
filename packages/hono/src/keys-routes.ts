import type { Authenticator, KeyManager, KeyRoutesOptions } from '@drops/auth';
import { answerResponse, createKeyRoutes, readRequestJson } from '@drops/auth/adapter';
import { Hono, type Context } from 'hono';
import { answeringErrors, type OnError } from './answer-error.js';
import { clientInfoOf, type ClientIp } from './client-info.js';
import type { OptionalDropsAuthVariables } from './drops-auth-variables.js';

/** Options of `keysRoutes()`: see `KeyRoutesOptions` of `@drops/auth`. */
export type KeysRoutesOptions = KeyRoutesOptions;

/**
 * The path below where the routes are mounted: the request's path without as many segments as
 * the mount path has (`app.route('/keys', …)` or `app.route('/orgs/:org/keys', …)`), so `''` for
 * `/keys` itself, `'/'` for `/keys/`, `'/<id>'` below. The mount path is the matched route's
 * pattern (`<mount>/*`), read as `c.req.routePath`, which every Hono 4 release has.
 */
function pathBelowMount(c: Context, pathname: string): string {
  const mount = c.req.routePath.replace(/\/?\*$/, '');
  const mountSegments = mount === '' || mount === '/' ? 0 : mount.split('/').length - 1;
  const below = pathname.split('/').slice(1 + mountSegments);
  return below.length === 0 ? '' : `/${below.join('/')}`;
}

/**
 * The `/keys` routes of `createKeyRoutes` as a Hono app: every method and path under where it is
 * mounted goes to the core, which authenticates first (without a credential the uniform 401,
 * never a 404 or 405 that would reveal what exists).
 * @internal Reached through `dropsAuth(...).keysRoutes()`.
 */
export function createKeysRoutes(
  authenticator: Authenticator,
  keys: KeyManager,
  options: KeysRoutesOptions | undefined,
  clientIp: ClientIp | undefined,
  onError: OnError | undefined,
): Hono<{ Variables: OptionalDropsAuthVariables }> {
  const routes = createKeyRoutes(authenticator, keys, options, 'keysRoutes()');
  const app = new Hono<{ Variables: OptionalDropsAuthVariables }>();
  app.all('*', (c) =>
    answeringErrors(c, onError, async () => {
      const request = c.req.raw;
      const url = new URL(request.url);
      const answer = await routes.handle({
        method: request.method,
        path: pathBelowMount(c, url.pathname),
        query: url.searchParams,
        authorization: request.headers,
        info: () => clientInfoOf(c, clientIp),
        readJson: (limit) => readRequestJson(request, limit),
        // `answerError` writes an error after authentication with `c.get('auth')` too (the expiry warning).
        authenticated: (principal) => c.set('auth', principal),
      });
      return answerResponse(answer, request.method, c.get('auth'));
    }),
  );
  return app;
}
