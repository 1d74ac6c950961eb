import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { isLoopbackUrl } from '../id-token/is-loopback-url.js';

/** Longest webhook URL accepted. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/**
 * Checks a webhook URL as `PUT /keys/webhook` receives it: an absolute `https:` URL of at most
 * 2048 characters, with no user name or password (they would be stored and sent as they are) and no
 * fragment; `http:` only to a loopback host and only when `allowLoopbackHttp` (development). Any
 * other value is an `InvalidRequestError` (400). The address a host name resolves to is checked when
 * a delivery is sent (private, link-local and other inner addresses are refused there, after DNS).
 * @internal
 */
export function parseWebhookUrl(value: unknown, allowLoopbackHttp: boolean): string {
  const url = typeof value === 'string' && value.length <= MAX_WEBHOOK_URL_LENGTH && URL.canParse(value) ? new URL(value) : null;
  const scheme = url?.protocol === 'https:' || (allowLoopbackHttp && url?.protocol === 'http:' && isLoopbackUrl(url));
  if (url === null || !scheme || url.username !== '' || url.password !== '' || url.hash !== '') {
    throw new InvalidRequestError(
      `invalid webhook: url must be an https URL of at most ${MAX_WEBHOOK_URL_LENGTH} characters, with no user, password or fragment`,
    );
  }
  return url.href;
}
