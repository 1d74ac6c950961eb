import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { systemClock, type Clock } from '../clock.js';
import { createIdTokenVerifier } from '../id-token/create-id-token-verifier.js';
import type { IdTokenVerifier } from '../id-token/id-token-claims.js';
import { firebaseShapedClaims } from './firebase-shaped-claims.js';
import { signWith } from './local-identity-provider.js';

/**
 * The `NODE_ENV` values the development identity provider runs under: unset (or empty),
 * `development` and `test`. Exact strings, compared untrimmed: `production `, `PRODUCTION`,
 * `prod`, `staging` or a lone space are not development, so it refuses to start rather than
 * hand out ID tokens for any name (it fails closed: an unexpected value is production).
 */
export const DEV_IDENTITY_NODE_ENVS: readonly string[] = ['', 'development', 'test'];

/** Whether `nodeEnv` (the raw value, `undefined` when unset) allows the development identity provider. */
export function devIdentityAllowed(nodeEnv: string | undefined): boolean {
  return nodeEnv === undefined || DEV_IDENTITY_NODE_ENVS.includes(nodeEnv);
}

/** Lifetime of its ID tokens, a real provider's: one hour. */
const TOKEN_LIFETIME_SECONDS = 3600;
/** The names it issues tokens for: the `sub` of the token. */
const NAME = /^[A-Za-z0-9._-]{1,64}$/;
const NAME_RULE = 'send {"name": "alice", "authTime"?: <seconds, not in the future>}: a name of 1 to 64 letters, digits, ".", "_" or "-"';
/** A token request body is one small JSON object. */
const MAX_BODY_CHARS = 1024;

/** Options of {@link DevIdentityProvider}. */
export interface DevIdentityProviderOptions {
  /** The `NODE_ENV` it is allowed under. Default the process's (`process.env.NODE_ENV`). */
  readonly nodeEnv?: string | undefined;
  /** The clock it issues and checks tokens on, in milliseconds. Default `Date.now`. */
  readonly clock?: Clock;
}

/** An issued ID token, its lifetime in seconds, and the name it is for (its `sub`). */
export interface DevIdToken {
  readonly idToken: string;
  readonly expiresIn: number;
  readonly name: string;
}

/** What the token route answers: a token, or a 400 that says what to send. Never cached. */
export type DevTokenAnswer =
  | { readonly status: 200; readonly headers: { 'cache-control': 'no-store' }; readonly body: DevIdToken }
  | { readonly status: 400; readonly headers: { 'cache-control': 'no-store' }; readonly body: { readonly error: string } };

const NO_STORE = { 'cache-control': 'no-store' } as const;

function processNodeEnv(): string | undefined {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.NODE_ENV;
}

/**
 * A development identity provider you mount in your own app: ID tokens for any name, so you can
 * sign in and mint a first API key before you have a real provider. Its RSA key pair lives in
 * the process; `verifier` reads its key set in process, and checks its tokens exactly as it
 * would a real provider's. It refuses to start unless `NODE_ENV` is unset, `development` or
 * `test` (a `TypeError` naming the value), as the reference server's does.
 *
 * @example
 * ```ts
 * const dev = new DevIdentityProvider(); // throws under NODE_ENV=production
 * const authenticator = createAuthenticator({ keyStore, idTokenVerifier: dev.verifier });
 * // POST /dev/token {"name":"alice"} -> {"idToken":"…","expiresIn":3600,"name":"alice"}
 * const { status, headers, body } = dev.answerTokenRequest(req.body);
 * ```
 */
export class DevIdentityProvider {
  /** The `iss` of its tokens: a name that can never be a real provider's. */
  readonly issuer = 'https://dev-identity.drops.invalid';
  /** The `aud` of its tokens. */
  readonly audience = 'drops-dev';
  /** Verifies its tokens (and no other provider's), on its clock. */
  readonly verifier: IdTokenVerifier;
  readonly #clock: Clock;
  readonly #kid = `dev-${randomUUID()}`;
  readonly #privateKey: KeyObject;
  readonly #jwks: { readonly keys: readonly object[] };

  constructor(options: DevIdentityProviderOptions = {}) {
    const nodeEnv = 'nodeEnv' in options ? options.nodeEnv : processNodeEnv();
    if (!devIdentityAllowed(nodeEnv)) {
      throw new TypeError(
        `NODE_ENV=${JSON.stringify(nodeEnv)}: the development identity provider issues ID tokens for any name, ` +
          'so it runs only when NODE_ENV is unset, "development" or "test"; verify a real provider\'s tokens here (createIdTokenVerifier)',
      );
    }
    this.#clock = options.clock ?? systemClock;
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.#privateKey = privateKey;
    this.#jwks = { keys: [{ ...publicKey.export({ format: 'jwk' }), kid: this.#kid, alg: 'RS256', use: 'sig' }] };
    const body = JSON.stringify(this.#jwks);
    this.verifier = createIdTokenVerifier({
      clock: this.#clock,
      issuer: this.issuer,
      audience: this.audience,
      // Loopback so the verifier accepts http:; the fetch below answers in process, nothing listens.
      jwksUrl: 'http://127.0.0.1/.well-known/dev-jwks.json',
      fetch: async () => new Response(body, { headers: { 'content-type': 'application/json', 'cache-control': 'max-age=86400' } }),
    });
  }

  /** Its public key set, as a provider publishes it. */
  get jwks(): { readonly keys: readonly object[] } {
    return this.#jwks;
  }

  /**
   * An RS256 ID token for `name` (its `sub`), Firebase-shaped, valid for an hour from now, signed
   * in now or at `options.authTime` (seconds, not in the future: a token refreshed from that
   * sign-in, as a provider's refresh keeps `auth_time`). A name that is not 1 to 64 letters,
   * digits, `.`, `_` or `-`, or an `authTime` in the future, is a `TypeError`.
   */
  issueIdToken(name: string, options: { readonly authTime?: number } = {}): DevIdToken {
    const nowSeconds = Math.floor(this.#clock() / 1000);
    const { authTime } = options;
    if (typeof name !== 'string' || !NAME.test(name) || (authTime !== undefined && !isSignInTime(authTime, nowSeconds))) {
      throw new TypeError(`DevIdentityProvider.issueIdToken: ${NAME_RULE}`);
    }
    const claims = firebaseShapedClaims({
      issuer: this.issuer,
      audience: this.audience,
      sub: name,
      nowSeconds,
      ...(authTime !== undefined ? { authTimeSeconds: authTime } : {}),
      expiresInSeconds: TOKEN_LIFETIME_SECONDS,
      signInProvider: 'dev',
    });
    const idToken = signWith.rs256(this.#privateKey, { alg: 'RS256', typ: 'JWT', kid: this.#kid }, claims);
    return { idToken, expiresIn: TOKEN_LIFETIME_SECONDS, name };
  }

  /**
   * The token route's answer for a parsed JSON body: `{"name": "alice"}` (no body or `{}`: the
   * name `dev-user`), optionally with `"authTime"` (seconds, as {@link issueIdToken}), is a 200
   * with `{ idToken, expiresIn, name }`; anything else a 400 saying what to send.
   */
  answerTokenRequest(body: unknown): DevTokenAnswer {
    const request = tokenRequestOf(body, Math.floor(this.#clock() / 1000));
    if (request === null) return { status: 400, headers: NO_STORE, body: { error: NAME_RULE } };
    const { name, authTime } = request;
    return { status: 200, headers: NO_STORE, body: this.issueIdToken(name, authTime === undefined ? {} : { authTime }) };
  }

  /**
   * The token route as a fetch handler (`POST` with a JSON body, as {@link answerTokenRequest}):
   * Hono's `c.req.raw`, a Next.js route handler's `POST`, `Bun.serve`.
   */
  async handleTokenRequest(request: Request): Promise<Response> {
    if (request.method !== 'POST') return new Response(null, { status: 405, headers: { allow: 'POST', ...NO_STORE } });
    const text = await request.text();
    let body: unknown;
    try {
      body = text === '' ? undefined : text.length > MAX_BODY_CHARS ? null : JSON.parse(text);
    } catch {
      body = null;
    }
    const { status, headers, body: answer } = this.answerTokenRequest(body);
    return Response.json(answer, { status, headers });
  }
}

/** Whether `seconds` can be a sign-in time: a whole number of seconds since the epoch, not after `nowSeconds`. */
function isSignInTime(seconds: unknown, nowSeconds: number): seconds is number {
  return typeof seconds === 'number' && Number.isInteger(seconds) && seconds >= 0 && seconds <= nowSeconds;
}

/** What a token request asks for (the name `dev-user` when it names none), or `null` for a body to refuse. */
function tokenRequestOf(body: unknown, nowSeconds: number): { name: string; authTime?: number } | null {
  if (body === undefined) return { name: 'dev-user' };
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const { name = 'dev-user', authTime, ...rest } = body as { name?: unknown; authTime?: unknown };
  if (Object.keys(rest).length > 0 || typeof name !== 'string' || !NAME.test(name)) return null;
  if (authTime === undefined) return { name };
  return isSignInTime(authTime, nowSeconds) ? { name, authTime } : null;
}
