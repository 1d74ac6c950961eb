/**
 * Whether a URL names a loopback host (127.0.0.0/8, `localhost`, `[::1]`): the only hosts a key
 * set may be fetched from over plain HTTP, for tests and local development.
 */
export function isLoopbackUrl(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]') return true;
  const octets = host.split('.');
  return (
    octets.length === 4 &&
    octets[0] === '127' &&
    octets.every((o) => /^\d{1,3}$/.test(o) && Number(o) <= 255)
  );
}
