/** One request on an account route: method, path and (optional) body. */
export interface AccountRoute {
  readonly method: string;
  readonly path: string;
  readonly body?: string;
}

/**
 * A request on every account route family of the spec (K or T), plus the anonymous deploy,
 * where a credential that does not authenticate must be the same 401 (never a fallback to
 * anonymous). `slug` is a drop the test account owns, `keyId` one of its keys.
 */
export function accountRoutes(slug: string, keyId: string): AccountRoute[] {
  return [
    { method: 'GET', path: '/keys' },
    { method: 'GET', path: '/keys/events' },
    { method: 'POST', path: '/keys', body: '{"name":"attack"}' },
    { method: 'DELETE', path: `/keys/${keyId}` },
    { method: 'POST', path: '/deploy', body: 'content' },
    { method: 'POST', path: `/deploy/${slug}`, body: ' more' },
    { method: 'GET', path: '/drops' },
    { method: 'GET', path: '/vanity' },
    { method: 'PUT', path: '/vanity/attack', body: JSON.stringify({ slug }) },
    { method: 'GET', path: '/billing/plan' },
    { method: 'GET', path: '/whoami' },
  ];
}
