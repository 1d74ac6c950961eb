import type { Principal } from '../authenticator/principal.js';

/**
 * The header that warns a client its API key expires soon: `Drops-Key-Expiration: <RFC 3339>`,
 * on every answer to a request authenticated by a key that expires within
 * {@link KEY_EXPIRATION_WARNING_SECONDS}. Lowercase, as Node and fetch `Headers` write it.
 */
export const KEY_EXPIRATION_HEADER = 'drops-key-expiration';

/** How long before its expiry a key's answers carry {@link KEY_EXPIRATION_HEADER}: 7 days, in seconds. */
export const KEY_EXPIRATION_WARNING_SECONDS = 7 * 24 * 60 * 60;

const WARNING_MS = KEY_EXPIRATION_WARNING_SECONDS * 1000;

/**
 * The value of {@link KEY_EXPIRATION_HEADER} for a request's principal: the key's expiry as RFC
 * 3339 (UTC) when it is an API key that expires within 7 days of `now`, else `null` (an ID token,
 * a key without expiry or expiring later, no principal). The one function every adapter calls
 * once the request is authenticated, so that every answer to it carries the warning.
 *
 * @param principal - who made the request (`null`/`undefined`: anonymous).
 * @param now - the current time in ms since the epoch. Default: `Date.now()`, read only for an API
 *   key that expires (most answers need no clock).
 *
 * @example
 * ```ts
 * import { keyExpirationHeader, KEY_EXPIRATION_HEADER } from '@drops/auth/adapter';
 *
 * const principal = { accountId: 'acct_1', credential: 'api_key', keyId: 'a'.repeat(64), expiresAt: new Date(Date.now() + 86_400_000) } as const;
 * const value = keyExpirationHeader(principal); // '2026-…Z': the key expires within 7 days
 * if (value !== null) response.headers.set(KEY_EXPIRATION_HEADER, value);
 * ```
 */
export function keyExpirationHeader(principal: Principal | null | undefined, now?: number): string | null {
  const expiresAt = principal?.expiresAt;
  if (expiresAt === undefined || principal?.credential !== 'api_key') return null;
  return expiresAt.getTime() - (now ?? Date.now()) <= WARNING_MS ? expiresAt.toISOString() : null;
}
