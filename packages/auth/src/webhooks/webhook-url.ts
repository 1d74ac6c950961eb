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
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_WEBHOOK_URL_LENGTH || !URL.canParse(value)) {
    throw new InvalidRequestError(`invalid webhook: url must be an absolute https URL of at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
  }
  const url = new URL(value);
  const loopbackHttp = allowLoopbackHttp && url.protocol === 'http:' && isLoopbackUrl(url);
  if (url.protocol !== 'https:' && !loopbackHttp) throw new InvalidRequestError('invalid webhook: url must use https');
  if (url.username !== '' || url.password !== '')
    throw new InvalidRequestError('invalid webhook: url must not carry a user name or password');
  if (url.hash !== '') throw new InvalidRequestError('invalid webhook: url must not carry a fragment');
  return url.href;
}
