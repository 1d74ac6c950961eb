import { API_KEY_LENGTH, API_KEY_PREFIX, isApiKeyFormat } from '../api-key/api-key-format.js';

/** A header bag: the Fetch API's `Headers`, or Node's `IncomingHttpHeaders` (lowercase names). */
export type HeadersLike = { get(name: string): string | null } | Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * An `Authorization` header's value as a request hands it over: one value, several (the header
 * repeated, which is refused as malformed), or none (`null` from the Fetch API's `Headers`,
 * `undefined` from Node's).
 */
export type AuthorizationValue = string | readonly string[] | null | undefined;

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

const BEARER = [98, 101, 97, 114, 101, 114]; // "bearer"
const SPACE = 32;
const TAB = 9;

/**
 * Parses an `Authorization` header value (RFC 7235: the scheme is case-insensitive, one or more
 * spaces before the credential) and tells an API key from an ID token. Anything that is not
 * exactly one Bearer token68 credential is `malformed`; so is a credential starting with `hp_`
 * that is not exactly the API key format, so `api_key` always carries a well-formed secret.
 *
 * @example
 * ```ts
 * parseAuthorization('bearer hp_…');    // { kind: 'api_key', value: 'hp_…' }
 * parseAuthorization('Basic dXNlcg=='); // { kind: 'malformed' }
 * parseAuthorization(undefined);        // { kind: 'absent' }
 * ```
 */
export function parseAuthorization(value: AuthorizationValue): BearerCredential {
  const credential = parseBearer(value);
  return isWellFormed(credential) ? credential : MALFORMED;
}

/**
 * Whether {@link parseAuthorization} answers a credential of {@link parseBearer} as it is: all but
 * an `api_key` whose characters are not the key format and an `id_token` that is not token68.
 * @internal
 */
export function isWellFormed(credential: BearerCredential): boolean {
  switch (credential.kind) {
    case 'api_key':
      return isApiKeyFormat(credential.value);
    case 'id_token':
      return isToken68(credential.value);
    default:
      return true;
  }
}

/** Whether a credential is RFC 6750 token68, as every ID token (a compact JWS) is. @internal */
export function isToken68(credential: string): boolean {
  return TOKEN68.test(credential);
}

/**
 * The type of credential an `Authorization` value presents, as {@link parseAuthorization} reads
 * it: `null` for none, and for a value that is neither kind (an ill-formed key included).
 * What `drops-auth:authenticate` reports of a refusal. @internal
 *
 * @example
 * ```ts
 * credentialTypeOf('Bearer hp_…');   // 'api_key'
 * credentialTypeOf('Bearer hp_bad'); // null
 * ```
 */
export function credentialTypeOf(value: AuthorizationValue): 'api_key' | 'id_token' | null {
  const { kind } = parseAuthorization(value);
  return kind === 'api_key' || kind === 'id_token' ? kind : null;
}

/**
 * {@link parseAuthorization} without the character checks ({@link isWellFormed}): an `hp_`
 * credential of the key's length is `api_key` whatever its characters, and any other one
 * `id_token`. The authenticator's hot path: it hashes a secret and asks the store, or asks the
 * verifier's cache for a token, and checks the characters only when neither knows the credential
 * (a known key was minted and a cached token verified, so their format is settled), to tell
 * `malformed` from `unknown_key` and before a token is verified. The store is only ever asked for
 * a SHA-256 id, and the cache only compares whole strings, so nothing of an ill-formed credential
 * reaches either. @internal
 */
export function parseBearer(value: AuthorizationValue): BearerCredential {
  if (value === undefined || value === null) return ABSENT;
  if (typeof value !== 'string') return value.length === 0 ? ABSENT : MALFORMED;
  if (value.length > MAX_AUTHORIZATION_LENGTH) return MALFORMED;
  // Hand-rolled rather than trim/toLowerCase/regex: this runs on every request (see https://github.com/drops-dev/drops-auth/blob/main/bench/METHOD.md).
  let start = 0;
  let end = value.length;
  while (start < end && (value.charCodeAt(start) === SPACE || value.charCodeAt(start) === TAB)) start++;
  while (end > start && (value.charCodeAt(end - 1) === SPACE || value.charCodeAt(end - 1) === TAB)) end--;
  if (end - start < 8) return MALFORMED;
  for (let i = 0; i < 6; i++) {
    // `| 0x20` folds ASCII upper case to lower case; only the two cases of each letter match.
    if ((value.charCodeAt(start + i) | 0x20) !== BEARER[i]) return MALFORMED;
  }
  if (value.charCodeAt(start + 6) !== SPACE) return MALFORMED;
  let at = start + 7;
  while (value.charCodeAt(at) === SPACE) at++;
  const credential = at === 7 && end === value.length ? value.slice(7) : value.slice(at, end);
  if (credential.startsWith(API_KEY_PREFIX)) {
    return credential.length === API_KEY_LENGTH ? { kind: 'api_key', value: credential } : MALFORMED;
  }
  return { kind: 'id_token', value: credential };
}

/** The usual spelling of an API key's header: the scheme as clients write it and one space. */
const PLAIN_SCHEME = 'Bearer ';
const PLAIN_API_KEY_START = `${PLAIN_SCHEME}${API_KEY_PREFIX}`;
const PLAIN_API_KEY_HEADER_LENGTH = PLAIN_SCHEME.length + API_KEY_LENGTH;

/**
 * The secret of an `Authorization` value spelled `Bearer hp_…` with nothing around it and the
 * key's length, else `undefined`. The authenticator looks here first, for the header nearly every
 * request with a key carries, and hands anything else to {@link parseBearer}. For every value this
 * answers, {@link parseBearer} answers the same `api_key`, or refuses it as `malformed` and this
 * answers a secret that is not the key format (a space or tab at its end), which the authenticator
 * then refuses as `malformed` too. @internal
 */
export function plainApiKeyOf(value: string): string | undefined {
  return value.length === PLAIN_API_KEY_HEADER_LENGTH && value.startsWith(PLAIN_API_KEY_START)
    ? value.slice(PLAIN_SCHEME.length)
    : undefined;
}

/** The parts of Node's `IncomingMessage` that {@link authorizationOfNodeRequest} reads. */
export interface NodeRequestLike {
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly rawHeaders?: readonly string[];
}

/**
 * The `Authorization` value(s) of a Node request (Express's `req`, Koa's `ctx.req`). Node keeps
 * only the first of several `Authorization` headers in `req.headers`, so a request carrying a
 * valid credential and a second value would authenticate with the first while a proxy reading the
 * last one disagrees. This reads `req.rawHeaders` instead and answers every value as a list when
 * there are several, which {@link parseAuthorization} refuses as malformed.
 *
 * @example
 * ```ts
 * const principal = await authenticator.authenticate(authorizationOfNodeRequest(req));
 * ```
 */
export function authorizationOfNodeRequest(req: NodeRequestLike): string | readonly string[] | undefined {
  const raw = req.rawHeaders;
  if (raw === undefined) return authorizationOf(req.headers);
  let first: string | undefined;
  let all: string[] | undefined;
  for (let i = 0; i < raw.length - 1; i += 2) {
    const name = raw[i] as string;
    // The two spellings clients send are compared as they are: lower-casing a name costs a new
    // string per header of 13 characters, on every request.
    if (name.length !== 13 || (name !== 'Authorization' && name !== 'authorization' && name.toLowerCase() !== 'authorization')) {
      continue;
    }
    const value = raw[i + 1] as string;
    if (first === undefined) first = value;
    else {
      all ??= [first];
      all.push(value);
    }
  }
  return all ?? first;
}
