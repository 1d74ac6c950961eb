import type { Request } from 'express';

/** The separate origin drop content is served on (the `dropsOrigin` setting). */
export interface DropsOrigin {
  /** `scheme://host[:port]`, no trailing slash: the base of drop URLs. */
  readonly origin: string;
  /** `host[:port]` as a request's `Host` names it (lower case, default port left out). */
  readonly host: string;
}

// Plain HTTP only where nobody else can listen: tests and local development.
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host === '[::1]') return true;
  const octets = host.split('.');
  return octets.length === 4 && octets[0] === '127' && octets.every((o) => /^\d{1,3}$/.test(o) && Number(o) <= 255);
}

/**
 * Parses the drops origin: an `https:` origin (`http:` only on a loopback host), with no path,
 * query, fragment or credentials. Returns the problem as a string when it is not one.
 */
export function parseDropsOrigin(value: string): DropsOrigin | string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an origin such as https://drops-content.example.net';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    return 'must be https: (plain http: only on a loopback host, for tests)';
  }
  if (url.username !== '' || url.password !== '' || url.pathname !== '/' || url.search !== '' || url.hash !== '') {
    return 'must be an origin only (scheme, host and port), with no path, query or credentials';
  }
  return { origin: url.origin, host: url.host.toLowerCase() };
}

/** Whether `req` was made to the drops origin's host (`Host`, or `X-Forwarded-Host` behind a trusted proxy). */
export function isDropsHost(req: Request, drops: DropsOrigin): boolean {
  // Express 5: `undefined` when the request names no host.
  const host = (req.host as string | undefined)?.toLowerCase() ?? '';
  const defaultPort = drops.origin.startsWith('https:') ? ':443' : ':80';
  return (host.endsWith(defaultPort) ? host.slice(0, -defaultPort.length) : host) === drops.host;
}
