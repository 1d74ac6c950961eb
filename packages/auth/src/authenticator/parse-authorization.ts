import { API_KEY_PREFIX } from '../api-key/api-key-format.js';

/** A header bag: the Fetch API's `Headers`, or Node's `IncomingHttpHeaders` (lowercase names). */
export type HeadersLike =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

/** A parsed `Authorization: Bearer …` header. */
export type BearerCredential =
  | { readonly kind: 'absent' }
  | { readonly kind: 'malformed' }
  | { readonly kind: 'api_key' | 'id_token'; readonly value: string };

const ABSENT: BearerCredential = Object.freeze({ kind: 'absent' });
const MALFORMED: BearerCredential = Object.freeze({ kind: 'malformed' });

/** Longest `Authorization` value looked at; longer ones are malformed without further work. */
export const MAX_AUTHORIZATION_LENGTH = 16 * 1024;

// RFC 6750 token68: 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * Reads the `Authorization` header from a header bag. Several values (an array) count as
 * malformed, never as "take the first".
 *
 * @example
 * ```ts
 * authorizationOf(new Headers({ authorization: 'Bearer hp_…' })); // 'Bearer hp_…'
 * authorizationOf({ authorization: undefined });                  // undefined
 * ```
 */
export function authorizationOf(headers: HeadersLike): string | readonly string[] | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get('authorization') ?? undefined;
  }
  const bag = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  return bag['authorization'] ?? bag['Authorization'];
}

/**
 * Parses an `Authorization` header value (RFC 7235: the scheme is case-insensitive, one or more
 * spaces before the credential) and tells an API key (`hp_…`) from an ID token. Anything that is
 * not exactly one Bearer token68 credential is `malformed`.
 *
 * @example
 * ```ts
 * parseAuthorization('bearer hp_…');  // { kind: 'api_key', value: 'hp_…' }
 * parseAuthorization('Basic dXNlcg=='); // { kind: 'malformed' }
 * parseAuthorization(undefined);       // { kind: 'absent' }
 * ```
 */
export function parseAuthorization(value: string | readonly string[] | null | undefined): BearerCredential {
  if (value === undefined || value === null) return ABSENT;
  if (typeof value !== 'string') return value.length === 0 ? ABSENT : MALFORMED;
  if (value.length > MAX_AUTHORIZATION_LENGTH) return MALFORMED;
  const header = value.trim();
  if (header.length < 8 || header.slice(0, 6).toLowerCase() !== 'bearer' || header.charCodeAt(6) !== 32) {
    return MALFORMED;
  }
  let start = 7;
  while (header.charCodeAt(start) === 32) start++;
  const credential = header.slice(start);
  if (!TOKEN68.test(credential)) return MALFORMED;
  return { kind: credential.startsWith(API_KEY_PREFIX) ? 'api_key' : 'id_token', value: credential };
}
