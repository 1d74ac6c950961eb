import { UnauthenticatedError } from '../errors/index.js';
import { decodeJsonPart, splitCompactJwt, type CompactJwtParts } from './decode-compact-jwt.js';
import type { IdTokenClaims, IdTokenVerifier } from './id-token-claims.js';
import { parseIdTokenVerifierOptions, type IdTokenVerifierOptions } from './id-token-verifier-options.js';
import type { KeySource } from './key-source.js';
import { RemoteKeySet } from './remote-key-set.js';
import { withCachedVerification } from './cached-verification.js';
import { VerifiedTokenCache, type VerifiedToken } from './verified-token-cache.js';
import { verifyStaticClaims, verifyTimeClaims } from './verify-claims.js';
import { verifyHeader, type AcceptedHeader } from './verify-header.js';
import { verifyJws, type PublicKey } from '../platform/runtime-crypto.js';
import { providerWarning } from './provider-warning.js';

/** Distinct acceptable headers remembered (forgotten all at once when full). */
const MAX_ACCEPTED_HEADERS = 64;

/** Freezes `value` and every object under it (JSON: no cycles, no accessors). No array of values is made on the way. */
function deepFreeze<T extends object>(value: T): T {
  Object.freeze(value);
  for (const name in value) {
    const child: unknown = value[name];
    if (typeof child === 'object' && child !== null && !Object.isFrozen(child)) deepFreeze(child);
  }
  return value;
}

/**
 * Creates an ID token verifier for an identity provider (Firebase Authentication through the
 * `firebase()` preset, any OpenID Connect provider through `oidc()`, or any provider given as
 * `{ issuer, audience, jwksUrl }`).
 *
 * `verify(token)` checks, all of them: `alg` is one of `algorithms` (default exactly `RS256`);
 * `kid` present and in the provider's key set, naming a key of that algorithm's type and curve;
 * no `crit` header; `typ` when one is required; the signature; `iss`; `aud`; `exp` in the future;
 * `iat` in the past; `auth_time` (if present) in the past; `nbf` (if present) reached; `sub` a
 * string of 1 to 128 characters; `exp - iat` at most `maxLifetimeSeconds` (default one hour).
 * Keys a key set must never be trusted with (weak RSA, ROCA, not for signing, off-curve) are
 * skipped and reported on `drops-auth:jwks-key-skipped`. A bad token rejects with
 * `UnauthenticatedError` (reason `expired_token` or `invalid_token`); a key set that cannot be
 * had rejects with `UnavailableError('identity_provider')` (a 503, never a 401).
 *
 * Signatures are checked on keys imported once per key set (`node:crypto` on Node, Web Crypto
 * elsewhere); a verified token is
 * remembered (bounded LRU, `maxCachedTokens`) so a repeat costs a map lookup and the time
 * checks, and is refused as soon as it expires or its key leaves the key set.
 *
 * Options are parsed here: a bad one throws `TypeError`. Defaults: `clockToleranceSeconds` 5
 * (at most 300), `fetchTimeoutMs` 5000, `unknownKidCooldownMs` 30 000, `defaultMaxAgeMs`
 * 10 min, `staleWhileErrorMs` 1 h, `maxCachedTokens` 10 000, `algorithms` `['RS256']`,
 * `maxLifetimeSeconds` 3600, `typ` unchecked.
 *
 * @example
 * ```ts
 * import { createIdTokenVerifier, firebase } from '@drops/auth';
 *
 * const verifier = createIdTokenVerifier({ ...firebase({ projectId: 'my-project' }) });
 * await verifier.warmUp();
 * const claims = await verifier.verify(idToken); // claims.sub is the user
 * ```
 *
 * @example
 * ```ts
 * const verifier = createIdTokenVerifier({
 *   issuer: 'https://auth.example.com',
 *   audience: ['dashboard', 'cli'],
 *   jwksUrl: 'https://auth.example.com/.well-known/jwks.json',
 *   clockToleranceSeconds: 30,
 * });
 * ```
 *
 * @example
 * ```ts
 * // RFC 9068 access tokens of a provider that signs with ES256 or PS256 and issues them for 24 h.
 * const verifier = createIdTokenVerifier({
 *   issuer: 'https://auth.example.com/',
 *   audience: 'https://api.example.com',
 *   jwksUrl: 'https://auth.example.com/.well-known/jwks.json',
 *   algorithms: ['ES256', 'PS256'],
 *   maxLifetimeSeconds: 86_400,
 *   typ: 'at+jwt',
 * });
 * ```
 */
export function createIdTokenVerifier(options: IdTokenVerifierOptions): IdTokenVerifier {
  const o = parseIdTokenVerifierOptions(options);
  const { clock, clockToleranceSeconds } = o;
  const sourceOptions = {
    fetch: o.fetch,
    clock,
    fetchTimeoutMs: o.fetchTimeoutMs,
    defaultMaxAgeMs: o.defaultMaxAgeMs,
    staleWhileErrorMs: o.staleWhileErrorMs,
    unknownKidCooldownMs: o.unknownKidCooldownMs,
    algorithms: o.algorithms,
  };
  const keySet: KeySource =
    o.jwksUrl !== undefined
      ? new RemoteKeySet({ ...sourceOptions, url: o.jwksUrl })
      : o.discovery!.keySource({ ...sourceOptions, discoveryUrl: new URL(o.discovery!.url), issuer: o.issuer });
  const cache = new VerifiedTokenCache(o.maxCachedTokens);
  const expected = { issuer: o.issuer, audiences: o.audiences, clockToleranceSeconds, maxLifetimeSeconds: o.maxLifetimeSeconds };
  const headerExpectations = { algorithms: o.algorithms, typ: o.typ };
  /** Verifications started and not finished: more than one means a burst, worth the thread pool. */
  let pending = 0;
  const warning = providerWarning(o.issuer, o.onWarning);

  async function verifyRepeat(token: string, hit: VerifiedToken): Promise<IdTokenClaims> {
    verifyTimeClaims(hit.claims, clock(), clockToleranceSeconds);
    const current = keySet.peek(hit.kid, hit.alg) ?? (await keySet.getKey(hit.kid, hit.alg));
    if (current !== hit.key) {
      // The kid left the key set or now names another key: verify afresh.
      cache.delete(token);
      return verifyFresh(token);
    }
    return hit.claims;
  }

  // The repeat path without a promise, for the authenticator's check: only a hit that verifyRepeat
  // would answer with its claims at once; anything else goes through verify().
  function verifyCached(token: string): IdTokenClaims | undefined {
    const hit = cache.get(token);
    if (hit === undefined || keySet.peek(hit.kid, hit.alg) !== hit.key) return undefined;
    try {
      verifyTimeClaims(hit.claims, clock(), clockToleranceSeconds);
    } catch {
      return undefined;
    }
    warning.recovered();
    return hit.claims;
  }

  /** Header part -> kid and alg, for headers already found acceptable: one key's tokens share a header. */
  const acceptedHeaders = new Map<string, AcceptedHeader>();

  function headerOf(headerPart: string): AcceptedHeader {
    let header = acceptedHeaders.get(headerPart);
    if (header === undefined) {
      header = verifyHeader(decodeJsonPart(headerPart, 'header'), headerExpectations);
      if (acceptedHeaders.size >= MAX_ACCEPTED_HEADERS) acceptedHeaders.clear();
      acceptedHeaders.set(headerPart, header);
    }
    return header;
  }

  /**
   * Verifies a token not seen before (or whose key changed). No promise is made when the key is
   * at hand and the signature is checked right here (a lone verification): the claims come back
   * as they are. A promise when the key set must be fetched or the check goes to the thread pool.
   */
  function verifyFresh(token: string): IdTokenClaims | Promise<IdTokenClaims> {
    const parts = splitCompactJwt(token);
    const header = headerOf(parts.header);
    const payload = decodeJsonPart(parts.payload, 'payload');
    const key = keySet.getKey(header.kid, header.alg);
    return key instanceof Promise
      ? key.then((found) => verifySigned(token, parts, header, payload, found))
      : verifySigned(token, parts, header, payload, key);
  }

  function verifySigned(
    token: string,
    parts: CompactJwtParts,
    header: AcceptedHeader,
    payload: Record<string, unknown>,
    key: PublicKey,
  ): IdTokenClaims | Promise<IdTokenClaims> {
    // Offload only when other verifications are in flight (a burst): one alone is faster done
    // right here than handed to a worker thread and back.
    const signed = verifyJws(header.alg, key, parts.signingInput, parts.signature, pending > 1);
    return typeof signed === 'boolean'
      ? acceptSigned(token, signed, header, payload, key)
      : signed.then((valid) => acceptSigned(token, valid, header, payload, key));
  }

  function acceptSigned(
    token: string,
    valid: boolean,
    header: AcceptedHeader,
    payload: Record<string, unknown>,
    key: PublicKey,
  ): IdTokenClaims {
    if (!valid) throw new UnauthenticatedError('invalid_token', 'signature does not verify');
    const claims = verifyStaticClaims(payload, expected);
    verifyTimeClaims(claims, clock(), clockToleranceSeconds);
    cache.set(token, { claims: deepFreeze(claims), kid: header.kid, alg: header.alg, key });
    return claims;
  }

  return withCachedVerification(
    {
      async verify(token: string): Promise<IdTokenClaims> {
        pending++;
        try {
          const hit = typeof token === 'string' ? cache.get(token) : undefined;
          const claims = await (hit === undefined ? verifyFresh(token) : verifyRepeat(token, hit));
          warning.recovered();
          return claims;
        } catch (error) {
          warning.failed(error);
          throw error;
        } finally {
          pending--;
        }
      },
      warmUp(): Promise<void> {
        return keySet.refresh().catch((error: unknown) => {
          warning.failed(error);
          throw error;
        });
      },
    },
    verifyCached,
  );
}
