import * as z from 'zod/mini';
import { isApiKeyFormat } from '../api-key/api-key-format.js';
import { keyIdOf } from '../api-key/key-id.js';
import { DropsAuthError } from '../errors/drops-auth-error.js';
import { answeredAs, UnauthenticatedError, type UnauthenticatedReason } from '../errors/unauthenticated-error.js';
import { parseUnauthenticated, type UnauthenticatedOptions } from '../errors/unauthenticated-answer.js';
import { withTraits, type AuthAnswer } from './authenticator-traits.js';
import { cachedVerificationOf } from '../id-token/cached-verification.js';
import { UnavailableError } from '../errors/unavailable-error.js';
import { observeAuthentication, observingAuthentication } from '../diagnostics/observe-authentication.js';
import { observeKeyStoreCall, observingKeyStore } from '../diagnostics/observe-key-store-call.js';
import { availabilityWarning } from '../diagnostics/availability-warning.js';
import type { IdTokenClaims, IdTokenVerifier } from '../id-token/id-token-claims.js';
import type { RequestInfo } from '../key-store/key-event.js';
import { KEY_LOOKUP_METHODS, type KeyLookup } from '../key-store/key-lookup.js';
import { keyStoreOption } from '../key-store/key-store-option.js';
import type { ActiveKey } from '../key-store/key-store.js';
import { hasSessionCutoffs, SESSION_CUTOFFS_METHODS, signedInBefore, type SessionCutoffs } from '../key-store/session-cutoffs.js';
import {
  authorizationOf,
  isToken68,
  parseBearer,
  plainApiKeyOf,
  type AuthorizationValue,
  type BearerCredential,
  type HeadersLike,
} from './parse-authorization.js';
import { functionOption, lazySchema, parseOptions } from '../options/parse-options.js';
import { ALL_CREDENTIAL_TYPES, type CredentialType, type Principal } from './principal.js';

/**
 * Maps a verified ID token to the account it acts for. Resolve `null` to refuse the user (a 401).
 * Default: the token's `sub` is the account id.
 */
export type ResolveAccount = (claims: IdTokenClaims) => string | null | Promise<string | null>;

/** Options of {@link createAuthenticator}. */
export interface AuthenticatorOptions {
  /** Where API keys are looked up: a whole `KeyStore`, or any store with the hot path's part. */
  keyStore: KeyLookup;
  /** Verifies ID tokens. Without one, every ID token is refused with the uniform 401. */
  idTokenVerifier?: IdTokenVerifier;
  /** Maps ID token claims to an account id. Default: `claims.sub`. */
  resolveAccount?: ResolveAccount;
  /**
   * Where each account's sign-out cut-off is read: an ID token signed in (`auth_time`, else `iat`)
   * at or before it is the uniform 401. Default: `keyStore`, when it implements {@link SessionCutoffs}
   * (`MemoryKeyStore` and `PostgresKeyStore` do).
   */
  sessionCutoffs?: SessionCutoffs;
  /**
   * The realm and message of the one 401 that this authenticator, and every adapter given it,
   * answers for every cause. Default the spec's: `WWW-Authenticate: Bearer realm="drops"` and
   * `{"error":"missing or invalid API key: sign in to the dashboard to mint one"}`.
   *
   * @example
   * ```ts
   * createAuthenticator({ keyStore, unauthenticated: { realm: 'acme', message: 'sign in at acme.example to get an API key' } });
   * ```
   */
  unauthenticated?: UnauthenticatedOptions;
  /**
   * Told once when the key store cannot answer (a database outage: API keys answer 503), with the
   * cause, and once when it answers again. Never a key. Default `console.warn`.
   *
   * @example
   * ```ts
   * createAuthenticator({ keyStore, onWarning: (message) => logger.warn(message) });
   * ```
   */
  onWarning?: (message: string) => void;
}

/** Per-call options of {@link Authenticator.authenticate}. */
export interface AuthenticateOptions {
  /** Credential types this route accepts. Default: both. `POST /keys` accepts `['id_token']` only. */
  accept?: readonly CredentialType[];
  /**
   * What the request shows (address, `User-Agent`), for the `'first_used'` event of a key's first
   * use. A thunk: it is handed to `KeyLookup.recordUse`, which calls it only for a use it keeps
   * (at most once a minute per key), so the hot path builds nothing.
   *
   * @example
   * ```ts
   * await authenticator.authenticate(req.headers, { request: () => ({ ip: req.ip, userAgent: req.get('user-agent') }) });
   * ```
   */
  request?: () => RequestInfo;
}

/** What {@link Authenticator.authenticate} reads the credential from. */
export type AuthorizationSource = AuthorizationValue | HeadersLike;

/** Turns an `Authorization` header into a {@link Principal}, or one uniform error. */
export interface Authenticator {
  /**
   * Authenticates a request. Resolves the principal, or rejects with `UnauthenticatedError`
   * (the uniform 401: missing, malformed, unknown, revoked, expired or not accepted here) or
   * `UnavailableError` (503: the key store or identity provider could not answer).
   */
  authenticate(source: AuthorizationSource, options?: AuthenticateOptions): Promise<Principal>;
  /**
   * Like {@link Authenticator.authenticate}, but resolves `null` when there is no `Authorization`
   * header at all. A header that is present and does not authenticate is still a 401: never a
   * fallback to anonymous.
   */
  authenticateOptional(source: AuthorizationSource, options?: AuthenticateOptions): Promise<Principal | null>;
}

const optionsSchema = /* @__PURE__ */ lazySchema(() =>
  z.strictObject({
    keyStore: keyStoreOption<KeyLookup>({ KeyLookup: KEY_LOOKUP_METHODS }),
    idTokenVerifier: z.optional(
      z.custom<IdTokenVerifier>((v) => typeof (v as IdTokenVerifier | undefined)?.verify === 'function', {
        error: 'expected an IdTokenVerifier (a verify(token) method)',
      }),
    ),
    resolveAccount: z.optional(functionOption<ResolveAccount>()),
    sessionCutoffs: z.optional(keyStoreOption<SessionCutoffs>({ SessionCutoffs: SESSION_CUTOFFS_METHODS })),
    unauthenticated: z.optional(z.unknown()),
    onWarning: z.optional(functionOption<(message: string) => void>()),
  }),
);

/**
 * Validates an `accept` list once, so routes can build their options at start-up.
 * @internal
 */
export function parseAccept(accept: readonly CredentialType[] | undefined): readonly CredentialType[] {
  if (accept === undefined) return ALL_CREDENTIAL_TYPES;
  if (
    !Array.isArray(accept) ||
    accept.length === 0 ||
    !accept.every((type: unknown) => (ALL_CREDENTIAL_TYPES as readonly unknown[]).includes(type))
  ) {
    throw new TypeError(`accept must be a non-empty list of 'api_key' | 'id_token', got ${JSON.stringify(accept)}`);
  }
  return Object.freeze([...accept]);
}

/**
 * Whether a route's `accept` list takes `type`. The default list (every route that names none,
 * and every adapter's) answers by identity, with no search: this runs on every request.
 */
function accepts(accept: readonly CredentialType[], type: CredentialType): boolean {
  return accept === ALL_CREDENTIAL_TYPES || accept.includes(type);
}

function keyStoreUnavailable(cause: unknown): UnavailableError {
  return cause instanceof UnavailableError ? cause : new UnavailableError('key_store', { cause });
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown }).then === 'function';
}

/** What the one check answers: the principal, `null` (optional, no credential), or the error itself; at once or later. */
type Answer = AuthAnswer | Promise<AuthAnswer>;

/** The public methods' promise: an error answered is a rejection there. */
function settled(answer: AuthAnswer): Principal | null {
  if (answer instanceof Error) throw answer;
  return answer;
}

function isHeadersLike(source: AuthorizationSource): source is HeadersLike {
  return typeof source === 'object' && source !== null && !Array.isArray(source);
}

/**
 * Creates the authenticator: the one place where a request's `Authorization` header becomes a
 * principal. Options are checked here; a bad one throws `TypeError` at once.
 *
 * @example
 * ```ts
 * import { createAuthenticator, createIdTokenVerifier, firebase, MemoryKeyStore } from '@drops/auth';
 *
 * const authenticator = createAuthenticator({
 *   keyStore: new MemoryKeyStore(),
 *   idTokenVerifier: createIdTokenVerifier(firebase({ projectId: 'my-project' })),
 * });
 *
 * const principal = await authenticator.authenticate(request.headers);
 * // { accountId: 'acct_…', credential: 'api_key', keyId: '…' }
 * ```
 */
export function createAuthenticator(options: AuthenticatorOptions): Authenticator {
  parseOptions(optionsSchema(), options, 'createAuthenticator');
  const { keyStore, idTokenVerifier } = options;
  const unauthenticated = parseUnauthenticated(options.unauthenticated, 'createAuthenticator');
  const refuse = (reason: UnauthenticatedReason, detail?: string): UnauthenticatedError =>
    answeredAs(new UnauthenticatedError(reason, detail), unauthenticated);
  const resolveAccount: ResolveAccount = options.resolveAccount ?? ((claims) => claims.sub);
  const warn = options.onWarning ?? ((message: string) => console.warn(message));
  const storeWarning = availabilityWarning({ what: 'key store', answering: 'API keys', warn, perCause: false });
  const storeFailed = (cause: unknown): UnavailableError => {
    const error = keyStoreUnavailable(cause);
    storeWarning.failed(error);
    return error;
  };
  const cutoffs: SessionCutoffs | null = options.sessionCutoffs ?? (hasSessionCutoffs(keyStore) ? keyStore : null);

  // Every answer below is a value when it is at hand (a store answering from memory, a repeated
  // ID token whose verification is cached), else a promise of one; a refusal or an outage is the
  // error itself, returned, never thrown: no rejected promise on the hot path. Only an unforeseen
  // fault (a store's clock throwing) throws, or rejects.

  // `secret` is `hp_` and the key's length; its characters are checked only when no key is
  // found (parseBearer): a found key was minted, so its format is settled, and an ill-formed one
  // is still the uniform 401, `malformed`, whatever the store answers.
  function checkApiKey(secret: string, request: (() => RequestInfo) | undefined): Answer {
    const id = keyIdOf(secret);
    let found: ReturnType<KeyLookup['findActive']>;
    try {
      found = observingKeyStore() ? observeKeyStoreCall('findActive', () => keyStore.findActive(id)) : keyStore.findActive(id);
    } catch (cause) {
      return apiKeyStoreFailed(secret, cause);
    }
    // A store answering from memory returns the key itself: no promise round-trip on the hot path.
    if (found === null || !isThenable(found)) {
      storeWarning.recovered();
      return apiKeyPrincipal(secret, id, found, request);
    }
    return Promise.resolve(found).then(
      (key) => {
        storeWarning.recovered();
        return apiKeyPrincipal(secret, id, key, request);
      },
      (cause: unknown) => apiKeyStoreFailed(secret, cause),
    );
  }

  // An ill-formed key is refused as such, never answered 503: it could not have authenticated.
  function apiKeyStoreFailed(secret: string, cause: unknown): DropsAuthError {
    return isApiKeyFormat(secret) ? storeFailed(cause) : refuse('malformed');
  }

  // A refusal of a key whose characters are checked only now: `malformed` when they are wrong.
  function refuseKey(secret: string, reason: UnauthenticatedReason): UnauthenticatedError {
    return refuse(isApiKeyFormat(secret) ? reason : 'malformed');
  }

  // The same for a token: `malformed` when it is not token68.
  function refuseToken(token: string, reason: UnauthenticatedReason, detail?: string): UnauthenticatedError {
    return isToken68(token) ? refuse(reason, detail) : refuse('malformed');
  }

  function apiKeyPrincipal(
    secret: string,
    id: string,
    key: ActiveKey | null,
    request: (() => RequestInfo) | undefined,
  ): Principal | DropsAuthError {
    if (key === null) return refuseKey(secret, 'unknown_key');
    // One clock, the store's (the database's on PostgreSQL), read once: it stamps the use and
    // decides expiry, so every instance refuses a key at the same instant, with the same uniform
    // 401 as an unknown key.
    const now = keyStore.now();
    const { expiresAt } = key;
    if (expiresAt !== null && expiresAt.getTime() <= now) return expiredKey(id, request);
    keyStore.recordUse(id, useTime(now), request);
    return expiresAt === null
      ? { accountId: key.accountId, credential: 'api_key', keyId: id }
      : { accountId: key.accountId, credential: 'api_key', keyId: id, expiresAt };
  }

  function expiredKey(id: string, request: (() => RequestInfo) | undefined): UnauthenticatedError {
    keyStore.recordExpired(id, request);
    return refuse('expired_key');
  }

  // Uses recorded within one clock millisecond share one `Date`: a Date per request was about a
  // tenth of an API key check on the memory store (bench/METHOD.md). Stores treat it as a value.
  // A `Date` keeps whole milliseconds, and a store's clock may read fractions of one (the
  // database's clock of PostgresKeyStore does): compared as the `Date` would hold it.
  let lastUse: Date | undefined;
  function useTime(now: number): Date {
    if (lastUse === undefined || lastUse.getTime() !== Math.trunc(now)) lastUse = new Date(now);
    return lastUse;
  }

  // A verifier made by createIdTokenVerifier answers a repeated token from its cache at once.
  const verifyCached = idTokenVerifier === undefined ? undefined : cachedVerificationOf(idTokenVerifier);

  // `token` is any credential but an API key; its characters are checked only when the verifier's
  // cache does not hold it (parseBearer): a cached token verified, so it is token68.
  function checkIdToken(token: string): Answer {
    if (idTokenVerifier === undefined) return refuseToken(token, 'wrong_credential_type', 'no identity provider');
    const cached = verifyCached?.(token);
    if (cached !== undefined) return principalOfClaims(cached);
    if (!isToken68(token)) return refuse('malformed');
    let verified: Promise<IdTokenClaims>;
    try {
      verified = Promise.resolve(idTokenVerifier.verify(token));
    } catch (cause) {
      return Promise.resolve(verifierFailed(cause));
    }
    return verified.then(principalOfClaims, verifierFailed);
  }

  // A verifier that fails in an unforeseen way must not authenticate, nor call the token bad.
  function verifierFailed(cause: unknown): DropsAuthError {
    return cause instanceof DropsAuthError ? answeredAs(cause, unauthenticated) : new UnavailableError('identity_provider', { cause });
  }

  function resolverFailed(cause: unknown): DropsAuthError {
    return cause instanceof DropsAuthError ? answeredAs(cause, unauthenticated) : new UnavailableError('account_resolver', { cause });
  }

  function principalOfClaims(claims: IdTokenClaims): Answer {
    let accountId: ReturnType<ResolveAccount>;
    try {
      accountId = resolveAccount(claims);
    } catch (cause) {
      return resolverFailed(cause);
    }
    if (typeof accountId === 'string' || accountId === null) return principalOfAccount(claims, accountId);
    return Promise.resolve(accountId).then((resolved) => principalOfAccount(claims, resolved), resolverFailed);
  }

  function principalOfAccount(claims: IdTokenClaims, accountId: string | null): Answer {
    if (typeof accountId !== 'string' || accountId.length === 0) {
      return refuse('not_permitted', 'resolveAccount refused the user');
    }
    if (cutoffs === null) return { accountId, credential: 'id_token', claims };
    // From memory: a value, or (a store starting) a promise that may reject, a 503.
    let found: ReturnType<SessionCutoffs['sessionCutoff']>;
    try {
      found = cutoffs.sessionCutoff(accountId);
    } catch (cause) {
      return keyStoreUnavailable(cause);
    }
    if (found === null || typeof found === 'number') return principalAfterCutoff(claims, accountId, found);
    return Promise.resolve(found).then((cutoff) => principalAfterCutoff(claims, accountId, cutoff), keyStoreUnavailable);
  }

  function principalAfterCutoff(claims: IdTokenClaims, accountId: string, cutoff: number | null): Principal | DropsAuthError {
    if (signedInBefore(cutoff, claims.auth_time, claims.iat)) return refuse('signed_out');
    return { accountId, credential: 'id_token', claims };
  }

  /** The one check: every entry point (the two public methods, the adapters' kit) comes here. */
  function check(
    source: AuthorizationSource,
    accept: readonly CredentialType[],
    required: boolean,
    request: (() => RequestInfo) | undefined,
  ): Answer {
    // Timed only while someone listens on drops-auth:authenticate; otherwise one property read.
    const startedAt = observingAuthentication() ? performance.now() : undefined;
    const value = isHeadersLike(source) ? authorizationOf(source) : source;
    const answer = answerOfValue(value, accept, required, request);
    return startedAt === undefined ? answer : observeAuthentication(answer, value, startedAt);
  }

  function answerOfValue(
    value: AuthorizationValue,
    accept: readonly CredentialType[],
    required: boolean,
    request: (() => RequestInfo) | undefined,
  ): Answer {
    const plainKey = typeof value === 'string' ? plainApiKeyOf(value) : undefined;
    if (plainKey !== undefined && accepts(accept, 'api_key')) return checkApiKey(plainKey, request);
    return answerOf(parseBearer(value), accept, required, request);
  }

  function answerOf(
    credential: BearerCredential,
    accept: readonly CredentialType[],
    required: boolean,
    request: (() => RequestInfo) | undefined,
  ): Answer {
    switch (credential.kind) {
      case 'absent':
        return required ? refuse('missing') : null;
      case 'malformed':
        return refuse('malformed');
      case 'api_key':
        return accepts(accept, 'api_key') ? checkApiKey(credential.value, request) : refuseKey(credential.value, 'wrong_credential_type');
      case 'id_token':
        return accepts(accept, 'id_token') ? checkIdToken(credential.value) : refuseToken(credential.value, 'wrong_credential_type');
    }
  }

  // The public methods keep their contract (a promise; a refusal or an outage rejects) on the same check.
  function run(source: AuthorizationSource, authOptions: AuthenticateOptions | undefined, required: boolean): Promise<Principal | null> {
    let answer: Answer;
    try {
      answer = check(source, authOptions?.accept ?? ALL_CREDENTIAL_TYPES, required, authOptions?.request);
    } catch (error) {
      return Promise.reject(error);
    }
    if (answer instanceof Promise) return answer.then(settled);
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
  }

  return withTraits(
    {
      authenticate: (source, authOptions) => run(source, authOptions, true) as Promise<Principal>,
      authenticateOptional: (source, authOptions) => run(source, authOptions, false),
    },
    { unauthenticated, verifiesIdTokens: idTokenVerifier !== undefined, check },
  );
}
