import { createHmac, KeyObject, sign as cryptoSign } from 'node:crypto';
import { systemClock, type Clock } from '../clock.js';
import { firebaseShapedClaims } from './firebase-shaped-claims.js';
import { LocalKeyServer, type OutageMode } from './local-key-server.js';

export type { OutageMode } from './local-key-server.js';

/** Options of `LocalIdentityProvider.start`. */
export interface LocalIdentityProviderOptions {
  /** The `iss` of minted tokens. Default the server's origin, `http://127.0.0.1:<port>`. */
  readonly issuer?: string;
  /** The `aud` of minted tokens. Default `drops-local`. */
  readonly audience?: string;
  /** Port on 127.0.0.1. Default 0 (a random free port). */
  readonly port?: number;
  /** `Cache-Control: max-age` of the key set, in seconds; `null` sends no `Cache-Control`. Default 300. */
  readonly maxAgeSeconds?: number | null;
  /** The clock for `iat`, `exp` and `auth_time` of minted tokens. Default `Date.now`. */
  readonly clock?: Clock;
}

/** A public RSA signing key as published in a JSON Web Key Set. */
export interface PublicJwk {
  readonly kty: 'RSA';
  /** Modulus, base64url. */
  readonly n: string;
  /** Public exponent, base64url. */
  readonly e: string;
  readonly kid: string;
  readonly use: 'sig';
  readonly alg: 'RS256';
}

/** A private key as accepted by the signing helpers. */
export type PrivateSigningKey = CryptoKey | KeyObject;

/** One key pair of the provider. */
export interface LocalSigningKey {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly publicKey: CryptoKey;
  /** The public key as published in the key set (`kty`, `n`, `e`, `kid`, `use`, `alg`). */
  readonly publicJwk: PublicJwk;
}

/** Claim overrides for `mintIdToken`: any claim; a claim set to `undefined` is removed. */
export type IdTokenClaimOverrides = Record<string, unknown>;

/** Options of `mintIdToken`. */
export interface MintIdTokenOptions {
  /** Header fields merged over `{ alg: 'RS256', typ: 'JWT', kid }`; `undefined` removes one. */
  readonly header?: Record<string, unknown>;
  /** `exp` = `iat` + this. Default 3600. */
  readonly expiresInSeconds?: number;
  /** The `kid` header. Default the current key's. */
  readonly kid?: string;
  /** Sign with this private key instead of the current one (e.g. a foreign key under a known kid). */
  readonly key?: PrivateSigningKey;
}

function base64urlJson(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

function withoutUndefined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}

function toKeyObject(key: PrivateSigningKey): KeyObject {
  return key instanceof KeyObject ? key : KeyObject.from(key);
}

/**
 * Low-level JWS builders for tests, including the attack tokens a verifier must refuse. They
 * sign exactly the header and payload given, with no checks.
 *
 * @example
 * ```ts
 * const none = signWith.none({ alg: 'none', kid: idp.currentKid }, { sub: 'root' });
 * const confused = signWith.hs256(idp.publicKeyPem, { alg: 'HS256', kid: idp.currentKid }, claims);
 * const foreign = signWith.rs256(otherPrivateKey, { alg: 'RS256', kid: idp.currentKid }, claims);
 * ```
 */
export const signWith = {
  /** RSASSA-PKCS1-v1_5 SHA-256 with `privateKey`. */
  rs256(privateKey: PrivateSigningKey, header: object, payload: object): string {
    const input = `${base64urlJson(header)}.${base64urlJson(payload)}`;
    const signature = cryptoSign('RSA-SHA256', Buffer.from(input), toKeyObject(privateKey));
    return `${input}.${signature.toString('base64url')}`;
  },
  /** HMAC SHA-256 keyed with `secret` (e.g. the provider's public key PEM, for key confusion). */
  hs256(secret: string | Uint8Array, header: object, payload: object): string {
    const input = `${base64urlJson(header)}.${base64urlJson(payload)}`;
    const signature = createHmac('sha256', secret).update(input).digest('base64url');
    return `${input}.${signature}`;
  },
  /** No signature at all: `<header>.<payload>.` */
  none(header: object, payload: object): string {
    return `${base64urlJson(header)}.${base64urlJson(payload)}.`;
  },
} as const;

async function newSigningKey(serial: number, kid?: string): Promise<LocalSigningKey> {
  // Web Crypto rather than jose: jose is ESM only, and `require('@drops/auth/testing')` must work
  // on every Node version `engines` names, including those without require(esm).
  const { privateKey, publicKey } = await crypto.subtle.generateKey(
    { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['sign', 'verify'],
  );
  kid ??= `local-${serial}-${Math.random().toString(36).slice(2, 10)}`;
  const { n, e } = await crypto.subtle.exportKey('jwk', publicKey);
  if (n === undefined || e === undefined) throw new Error('the generated RSA key has no modulus or exponent');
  const publicJwk: PublicJwk = { kty: 'RSA', n, e, kid, use: 'sig', alg: 'RS256' };
  return { kid, privateKey, publicKey, publicJwk };
}

/**
 * A local identity provider for tests and offline development: an RSA key pair, its JWKS served
 * over HTTP on 127.0.0.1, and RS256 ID tokens minted on demand (Firebase-shaped by default). It
 * can rotate keys and simulate outages of the key set endpoint.
 *
 * @example
 * ```ts
 * import { createIdTokenVerifier } from '@drops/auth';
 * import { LocalIdentityProvider } from '@drops/auth/testing';
 *
 * const idp = await LocalIdentityProvider.start();
 * const verifier = createIdTokenVerifier({ ...idp.verifierOptions });
 * const token = idp.mintIdToken({ sub: 'user-42' });
 * (await verifier.verify(token)).sub; // 'user-42'
 * await idp.close();
 * ```
 */
export class LocalIdentityProvider {
  /** The `iss` of minted tokens. */
  readonly issuer: string;
  /** The `aud` of minted tokens. */
  readonly audience: string;
  /** Where the key set is served, `http://127.0.0.1:<port>/.well-known/jwks.json`. */
  readonly jwksUrl: string;
  /** `Cache-Control: max-age` of the key set in seconds (`null`: no header); may be changed between fetches. */
  maxAgeSeconds: number | null;

  readonly #server: LocalKeyServer;
  readonly #clock: Clock;
  #keys: LocalSigningKey[];
  #serial: number;

  private constructor(server: LocalKeyServer, key: LocalSigningKey, options: LocalIdentityProviderOptions) {
    this.#server = server;
    this.#keys = [key];
    this.#serial = 1;
    this.#clock = options.clock ?? systemClock;
    this.issuer = options.issuer ?? server.origin;
    this.audience = options.audience ?? 'drops-local';
    this.jwksUrl = server.url;
    this.maxAgeSeconds = options.maxAgeSeconds === undefined ? 300 : options.maxAgeSeconds;
  }

  /**
   * Generates a key pair and starts serving the key set on 127.0.0.1.
   *
   * @example
   * ```ts
   * const idp = await LocalIdentityProvider.start({ audience: 'my-project', maxAgeSeconds: 60 });
   * ```
   */
  static async start(options: LocalIdentityProviderOptions = {}): Promise<LocalIdentityProvider> {
    const known = ['issuer', 'audience', 'port', 'maxAgeSeconds', 'clock'];
    const unknown = Object.keys(options ?? {}).filter((key) => !known.includes(key));
    if (unknown.length > 0) throw new TypeError(`LocalIdentityProvider.start: options: unknown option "${unknown[0]}"`);
    const key = await newSigningKey(1);
    let provider: LocalIdentityProvider | undefined;
    const server = await LocalKeyServer.start({
      port: options.port,
      path: '/.well-known/jwks.json',
      document: () => provider!.jwks,
      headers: (): Record<string, string> =>
        provider!.maxAgeSeconds === null ? {} : { 'cache-control': `public, max-age=${provider!.maxAgeSeconds}` },
    });
    provider = new LocalIdentityProvider(server, key, options);
    return provider;
  }

  /** `{ issuer, audience, jwksUrl }`, ready to spread into `createIdTokenVerifier`. */
  get verifierOptions(): { issuer: string; audience: string; jwksUrl: string } {
    return { issuer: this.issuer, audience: this.audience, jwksUrl: this.jwksUrl };
  }

  /** How many requests the key set endpoint has received (failed ones included). */
  get fetchCount(): number {
    return this.#server.fetchCount;
  }

  /** The key new tokens are signed with. */
  get currentKey(): LocalSigningKey {
    return this.#keys[this.#keys.length - 1]!;
  }

  /** The `kid` of the current key. */
  get currentKid(): string {
    return this.currentKey.kid;
  }

  /** Every published key, oldest first. */
  get keys(): readonly LocalSigningKey[] {
    return [...this.#keys];
  }

  /** The key set document as served: `{ keys: [...] }`. */
  get jwks(): { keys: PublicJwk[] } {
    return { keys: this.#keys.map((k) => k.publicJwk) };
  }

  /** The current public key as SPKI PEM (for building key-confusion attack tokens). */
  get publicKeyPem(): string {
    return KeyObject.from(this.currentKey.publicKey).export({ type: 'spki', format: 'pem' }) as string;
  }

  /**
   * Mints an RS256 ID token. Defaults: `iss`, `aud`, `sub` `local-user`, `iat` and `auth_time`
   * now, `exp` now + 3600, `firebase.sign_in_provider` `google.com`. Any claim can be overridden,
   * or removed by passing `undefined`.
   *
   * @example
   * ```ts
   * idp.mintIdToken({ sub: 'user-1', email: 'a@example.com' });
   * idp.mintIdToken({ exp: undefined });                       // no exp claim at all
   * idp.mintIdToken({}, { header: { alg: 'RS512' } });         // a header override
   * ```
   */
  mintIdToken(claims: IdTokenClaimOverrides = {}, options: MintIdTokenOptions = {}): string {
    const now = Math.floor(this.#clock() / 1000);
    const payload = withoutUndefined({
      ...firebaseShapedClaims({
        issuer: this.issuer,
        audience: this.audience,
        sub: 'local-user',
        nowSeconds: now,
        expiresInSeconds: options.expiresInSeconds ?? 3600,
        signInProvider: 'google.com',
      }),
      ...claims,
    });
    const header = withoutUndefined({
      alg: 'RS256',
      typ: 'JWT',
      kid: options.kid ?? this.currentKid,
      ...options.header,
    });
    return signWith.rs256(options.key ?? this.currentKey.privateKey, header, payload);
  }

  /**
   * Generates a new key pair, which becomes the current one. The old keys stay published unless
   * `keepPrevious` is `false` (a key removed from the set must stop verifying). `kid` names the
   * new key (default a fresh one); reusing a published kid replaces that key.
   *
   * @example
   * ```ts
   * const { kid } = await idp.rotateKeys({ keepPrevious: false });
   * ```
   */
  async rotateKeys(options: { readonly keepPrevious?: boolean; readonly kid?: string } = {}): Promise<LocalSigningKey> {
    const key = await newSigningKey(++this.#serial, options.kid);
    const kept = options.keepPrevious === false ? [] : this.#keys.filter((k) => k.kid !== key.kid);
    this.#keys = [...kept, key];
    return key;
  }

  /** Removes a key from the published set by `kid`. */
  removeKey(kid: string): void {
    this.#keys = this.#keys.filter((k) => k.kid !== kid);
  }

  /**
   * Makes the key set endpoint fail until called with `null`: `down` resets the connection,
   * `hang` never answers, `garbage` answers 200 with invalid JSON, `error500` answers 500.
   */
  simulateOutage(mode: OutageMode | null): void {
    this.#server.simulateOutage(mode);
  }

  /** Stops the server, cutting any hanging connection. */
  close(): Promise<void> {
    return this.#server.close();
  }
}

/**
 * Starts a `LocalIdentityProvider`; same as `LocalIdentityProvider.start(options)`.
 *
 * @example
 * ```ts
 * const idp = await createLocalIdentityProvider();
 * ```
 */
export function createLocalIdentityProvider(options?: LocalIdentityProviderOptions): Promise<LocalIdentityProvider> {
  return LocalIdentityProvider.start(options);
}
