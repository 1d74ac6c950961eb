/**
 * Whether a URL's hostname is a loopback host (127.0.0.0/8, `localhost` and its subdomains,
 * `[::1]`): plain HTTP is accepted only where nobody else can listen, for tests and local
 * development (DROPS_ORIGIN, GITHUB_SECRET_SCANNING_KEYS_URL).
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host === '[::1]') return true;
  const octets = host.split('.');
  return octets.length === 4 && octets[0] === '127' && octets.every((o) => /^\d{1,3}$/.test(o) && Number(o) <= 255);
}
