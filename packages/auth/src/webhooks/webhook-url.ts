import { InvalidRequestError } from '../errors/invalid-request-error.js';
import { isLoopbackUrl } from '../id-token/is-loopback-url.js';

/** Longest webhook URL accepted. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/**
 * Checks a webhook URL as `PUT /keys/webhook` receives it: an absolute `https:` URL of at most
 * 2048 characters, with no user name or password (they would be stored and sent as they are) and no
 * fragment; `http:` only to a loopback host and only when `allowLoopbackHttp` (development); a host
 * that is an address literal, in any spelling, only a public one ({@link isDeliverableAddress};
 * loopback too when `allowLoopbackHttp`). Any other value is an `InvalidRequestError` (400). The
 * address a host name resolves to is checked when a delivery is sent, with the same rule.
 * @internal
 */
export async function parseWebhookUrl(value: unknown, allowLoopbackHttp: boolean): Promise<string> {
  // Loaded when a URL is set, not with the core: an app without webhooks never bundles ipaddr.js.
  const { addressLiteralOf, isDeliverableAddress } = await import('./webhook-address.js');
  const url = typeof value === 'string' && value.length <= MAX_WEBHOOK_URL_LENGTH && URL.canParse(value) ? new URL(value) : null;
  const scheme = url?.protocol === 'https:' || (allowLoopbackHttp && url?.protocol === 'http:' && isLoopbackUrl(url));
  const literal = url === null ? null : addressLiteralOf(url.hostname);
  const publicHost = literal === null || isDeliverableAddress(literal, allowLoopbackHttp);
  if (url === null || !scheme || !publicHost || url.username !== '' || url.password !== '' || url.hash !== '') {
    throw new InvalidRequestError(
      `invalid webhook: url must be an https URL of at most ${MAX_WEBHOOK_URL_LENGTH} characters, with no user, password or fragment, to a public host`,
    );
  }
  return url.href;
}
