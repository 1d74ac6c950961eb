/** Who may call a `/keys` route: an API key or an ID token, or an ID token only. */
export type KeyRouteCredentials = 'api_key_or_id_token' | 'id_token';

/** One `/keys` route. */
export interface KeyRoute {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** From the mount point (`/keys`); `:id` is a key id, any segment but a literal route's. */
  readonly path: string;
  readonly credentials: KeyRouteCredentials;
  /** The JSON body it reads (its shape, for docs), or `null` for none. */
  readonly body: string | null;
}

/**
 * The `/keys` routes, once: the route core (`createKeyRoutes`), the ID-token-only rule
 * (`isIdTokenOnlyKeyRoute`), `Allow`, the adapters' route names and the CLI help come from it,
 * and https://github.com/drops-dev/drops-auth/blob/main/docs/reference-server.md's routes table is checked against it. `GET` routes answer `HEAD`
 * too. Where every route of a path takes an ID token only, so does every other method there.
 */
export const KEY_ROUTES = {
  list: { method: 'GET', path: '/keys', credentials: 'api_key_or_id_token', body: null },
  mint: { method: 'POST', path: '/keys', credentials: 'id_token', body: '{"name"?, "expiresAt"?}' },
  revokeAll: { method: 'DELETE', path: '/keys', credentials: 'id_token', body: null },
  events: { method: 'GET', path: '/keys/events', credentials: 'api_key_or_id_token', body: null },
  webhook: { method: 'GET', path: '/keys/webhook', credentials: 'id_token', body: null },
  setWebhook: { method: 'PUT', path: '/keys/webhook', credentials: 'id_token', body: '{"url"}' },
  removeWebhook: { method: 'DELETE', path: '/keys/webhook', credentials: 'id_token', body: null },
  revoke: { method: 'DELETE', path: '/keys/:id', credentials: 'api_key_or_id_token', body: null },
  roll: { method: 'POST', path: '/keys/:id/roll', credentials: 'id_token', body: '{"graceSeconds"?}' },
} as const satisfies Record<string, KeyRoute>;

/** A route's name in {@link KEY_ROUTES}. */
export type KeyRouteName = keyof typeof KEY_ROUTES;

/** The distinct paths of {@link KEY_ROUTES} below the mount point (`/`, `/events`, `/:id`, …), literal paths first. */
export const KEY_ROUTE_PATHS: readonly string[] = [...new Set(Object.values(KEY_ROUTES).map((r) => below(r.path)))].sort(
  (a, b) => Number(a.includes(':')) - Number(b.includes(':')),
);

function below(path: string): string {
  return path.slice('/keys'.length) || '/';
}

const SEGMENTS = KEY_ROUTE_PATHS.map((path) => path.split('/').filter((s) => s !== ''));
// The literal segments at each depth: `:id` is never one of them (`/keys/events/roll` is a 404).
const LITERALS = SEGMENTS.map((_, at) => new Set(SEGMENTS.map((pattern) => pattern[at] ?? ':').filter((p) => !p.startsWith(':'))));

/** A request's path below the mount point, matched: its pattern (as in {@link KEY_ROUTE_PATHS}) and its `:id`. */
export interface KeyRouteMatch {
  readonly path: string;
  readonly id: string | null;
}

/** The route path `path` (below the mount point; a trailing `/` ignored) is, or `null` (a 404). */
export function matchKeyRoutePath(path: string): KeyRouteMatch | null {
  const trimmed = path.replace(/^\/|\/$/g, '');
  const segments = trimmed === '' ? [] : trimmed.split('/');
  for (const [i, pattern] of SEGMENTS.entries()) {
    if (pattern.length !== segments.length) continue;
    let id: string | null = null;
    let fits = true;
    for (const [at, p] of pattern.entries()) {
      const s = segments[at]!;
      if (p === ':id' && s !== '' && !LITERALS[at]?.has(s)) id = s;
      else if (p !== s) fits = false;
    }
    if (fits) return { path: KEY_ROUTE_PATHS[i]!, id };
  }
  return null;
}

/** The routes of a matched path, in table order. */
export function keyRoutesAt(path: string): [KeyRouteName, KeyRoute][] {
  return (Object.entries(KEY_ROUTES) as [KeyRouteName, KeyRoute][]).filter(([, r]) => below(r.path) === path);
}

/** The route of `method` (`HEAD` as `GET`) at a matched path, or `null`. */
export function keyRouteFor(method: string, path: string): [KeyRouteName, KeyRoute] | null {
  const m = method === 'HEAD' ? 'GET' : method;
  return keyRoutesAt(path).find(([, r]) => r.method === m) ?? null;
}

/** A route's path for one key: `keyRoutePath('roll', id)` is `/keys/<id>/roll`. */
export function keyRoutePath(name: KeyRouteName, id = '<id>'): string {
  return KEY_ROUTES[name].path.replace(':id', id);
}

/** A route as help and messages write it: `keyRouteText('roll', '<base URL>')` is `POST <base URL>/keys/<id>/roll`. */
export function keyRouteText(name: KeyRouteName, base = ''): string {
  return `${KEY_ROUTES[name].method} ${base}${keyRoutePath(name)}`;
}
