import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { addressLiteralOf, isDeliverableAddress, isLoopbackAddress } from '@drops/auth/internal';

/**
 * The one reason for every host the sender will not reach before connecting, resolved or not: a
 * literal or name with an inner address, a name that does not resolve or has no address, a lookup
 * that fails or times out. One reason, so an account cannot map the operator's DNS through it.
 */
export const NO_PUBLIC_ADDRESS = 'no public address';

/**
 * How a delivery went: `delivered` on a 2xx; otherwise why not, a short classification shown to the
 * account's owner (`reason`): `answered <status>`, `timed out`, a refusal of the URL or host (`not an
 * https URL`, {@link NO_PUBLIC_ADDRESS}, ...), `failed (<error code>)` for a connection or TLS error
 * (`ECONNREFUSED`, `CERT_HAS_EXPIRED`, ...) or `failed`. Never an error's message, the answer, a
 * header or the secret. `detail`, for the operator's logs only, says more where the reason is
 * {@link NO_PUBLIC_ADDRESS} (the lookup's error code, or the address refused).
 */
export type WebhookPostResult =
  | { readonly delivered: true; readonly status: number }
  | { readonly delivered: false; readonly reason: string; readonly detail?: string };

/** Options of {@link postWebhook}. */
export interface WebhookPostOptions {
  /** `http:` to loopback addresses allowed (development); otherwise `https:` to public addresses only. */
  readonly allowLoopback: boolean;
  /** Give up after this long, connection and answer together. */
  readonly timeoutMs: number;
  /** Resolves a host name to its addresses. Default `dns.lookup` with `all: true`. */
  readonly resolve?: (hostname: string) => Promise<readonly string[]>;
}

/** A refusal made here: its message is a reason fit to show the owner; `detail` is the operator's. */
class Refusal extends Error {
  readonly detail: string | undefined;
  constructor(reason: string, detail?: string) {
    super(reason);
    this.detail = detail;
  }
}

/** An error code (Node's, OpenSSL's) is a fixed word; anything else about the error stays out of the reason. */
const ERROR_CODE = /^[A-Z][A-Z0-9_]{1,63}$/;

function codeOf(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && ERROR_CODE.test(code) ? code : null;
}

function failureOf(error: unknown, timedOut: boolean): WebhookPostResult {
  if (error instanceof Refusal) {
    const { message: reason, detail } = error;
    return detail === undefined ? { delivered: false, reason } : { delivered: false, reason, detail };
  }
  if (timedOut) return { delivered: false, reason: 'timed out' };
  const code = codeOf(error);
  return { delivered: false, reason: code === null ? 'failed' : `failed (${code})` };
}

async function systemResolve(hostname: string): Promise<readonly string[]> {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => a.address);
}

/** The host's addresses: the literal, or what the name resolves to (a failure, the timeout included, is {@link NO_PUBLIC_ADDRESS}). */
async function addressesOf(url: URL, options: WebhookPostOptions, timeout: AbortSignal): Promise<readonly string[]> {
  const literal = addressLiteralOf(url.hostname);
  if (literal !== null) return [literal];
  try {
    return await Promise.race([(options.resolve ?? systemResolve)(url.hostname), aborted(timeout)]);
  } catch (error) {
    throw new Refusal(NO_PUBLIC_ADDRESS, error instanceof Refusal ? 'lookup timed out' : (codeOf(error) ?? 'lookup failed'));
  }
}

/**
 * The checked address to connect to: the host is resolved here, every address it resolves to must
 * be deliverable (one inner address among public ones refuses the host: a rebinding name could
 * answer either), and the connection is then pinned to the first (a second lookup could answer
 * differently). Whatever stops it, the owner sees {@link NO_PUBLIC_ADDRESS}.
 */
async function checkedAddress(url: URL, options: WebhookPostOptions, timeout: AbortSignal): Promise<string> {
  const addresses = await addressesOf(url, options, timeout);
  if (addresses.length === 0) throw new Refusal(NO_PUBLIC_ADDRESS, 'no address');
  const refused = addresses.find((address) => !isDeliverableAddress(address, options.allowLoopback));
  if (refused !== undefined) throw new Refusal(NO_PUBLIC_ADDRESS, `${refused} is not public`);
  return addresses[0] as string;
}

function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Refusal('timed out')), { once: true }));
}

function pinnedLookup(address: string): LookupFunction {
  const family = address.includes(':') ? 6 : 4;
  return (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

function send(url: URL, request: RequestOptions, body: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, request, resolve);
    req.once('error', reject);
    req.once('timeout', () => req.destroy(new Refusal('timed out')));
    req.end(body);
  });
}

/**
 * POSTs one webhook delivery safely: `https:` only (`http:` only with `allowLoopback`), the host
 * resolved and every address checked ({@link isDeliverableAddress}), the connection pinned to the
 * checked address (TLS still verifies the host name), no redirect followed (a 3xx is a failure), a
 * timeout over the whole exchange, the answer's body read and thrown away. Never throws.
 *
 * @example
 * ```ts
 * const result = await postWebhook('https://example.com/hooks', headers, body, { allowLoopback: false, timeoutMs: 5000 });
 * if (!result.delivered) console.warn(result.reason);
 * ```
 */
export async function postWebhook(
  target: string,
  headers: Readonly<Record<string, string>>,
  body: string,
  options: WebhookPostOptions,
): Promise<WebhookPostResult> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  try {
    const url = new URL(target);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && options.allowLoopback)) throw new Refusal('not an https URL');
    const address = await checkedAddress(url, options, timeout);
    if (url.protocol === 'http:' && !isLoopbackAddress(address)) throw new Refusal('http only to a loopback address');
    const res = await send(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
        lookup: pinnedLookup(address),
        agent: false,
        signal: timeout,
        timeout: options.timeoutMs,
      },
      body,
    );
    res.resume(); // the answer's body is ignored
    const status = res.statusCode ?? 0;
    return status >= 200 && status < 300 ? { delivered: true, status } : { delivered: false, reason: `answered ${status}` };
  } catch (error) {
    return failureOf(error, timeout.aborted);
  }
}
