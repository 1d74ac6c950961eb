/**
 * Whether a URL names a loopback host (127.0.0.0/8, `localhost`, `[::1]`): the only hosts a key
 * set may be fetched from over plain HTTP, for tests and local development.
 */
export function isLoopbackUrl(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]') return true;
  const octets = host.split('.');
  return octets.length === 4 && octets[0] === '127' && octets.every((o) => /^\d{1,3}$/.test(o) && Number(o) <= 255);
}

/** Why a URL refused by {@link isHttpsOrLoopbackUrl} was refused, for option errors. */
export const HTTPS_OR_LOOPBACK_MESSAGE = 'must be an https: URL (http: only for 127.0.0.0/8, localhost or [::1])';

/**
 * Whether `value` is a URL keys may be fetched from: `https:`, or `http:` on a loopback host
 * (tests, local development). For the identity provider's JWKS and GitHub's secret scanning keys.
 */
export function isHttpsOrLoopbackUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackUrl(url));
}
