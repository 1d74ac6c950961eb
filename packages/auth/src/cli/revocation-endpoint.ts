import { isLoopbackUrl } from '../id-token/is-loopback-url.js';
import { UsageError } from './usage-error.js';

/** The revoke-by-value route, under the server's base URL. */
export const REVOKE_PATH = '/credentials/revoke';

/** The environment variable the server's base URL is read from when `--url` is not given. */
export const SERVER_URL_ENV = 'DROPS_URL';

/**
 * `<base><path>` for the base URL of `--url`, else of `DROPS_URL` (so a team sets its server
 * once); checked as {@link serverEndpoint} says, a mistake naming where the URL came from.
 */
export function serverEndpointFrom(url: string | undefined, env: NodeJS.ProcessEnv, path: string): URL {
  if (url !== undefined) return serverEndpoint(url, '--url', path);
  const fromEnv = env[SERVER_URL_ENV]?.trim() ?? '';
  if (fromEnv === '') {
    throw new UsageError(`--url <base URL> is required (or set ${SERVER_URL_ENV}), e.g. --url https://drops.example.com`);
  }
  return serverEndpoint(fromEnv, SERVER_URL_ENV, path);
}

/**
 * `POST <base>/credentials/revoke` for the base URL given as `option` (`--url`, `--revoke`):
 * checked as {@link serverEndpoint} says.
 */
export function revocationEndpoint(base: string | undefined, option: string): URL {
  return serverEndpoint(base, option, REVOKE_PATH);
}

/**
 * `<base><path>` for the base URL given as `option`. Secrets (keys to revoke, a credential) are
 * sent there, so the URL must be `https:`; plain `http:` only to a loopback host (127.0.0.0/8,
 * `localhost`, `[::1]`), as for JWKS. No credentials, query or fragment: a base URL.
 */
export function serverEndpoint(base: string | undefined, option: string, path: string): URL {
  const example = `${option} https://drops.example.com`;
  if (base === undefined || base === '') throw new UsageError(`${option} <base URL> is required, e.g. ${example}`);
  if (!URL.canParse(base)) throw new UsageError(`${option} must be an absolute URL, e.g. ${example}`);
  const url = new URL(base);
  if (!(url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackUrl(url)))) {
    throw new UsageError(
      `${option} must be an https: URL (http: only for 127.0.0.0/8, localhost or [::1]): ` +
        'secrets would otherwise cross the network readable by anyone on the way',
    );
  }
  if (url.username !== '' || url.password !== '') throw new UsageError(`${option} must not carry a user name or password`);
  if (url.search !== '' || url.hash !== '') throw new UsageError(`${option} is a base URL: no query (?) or fragment (#)`);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  return url;
}
