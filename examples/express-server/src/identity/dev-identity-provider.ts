import { generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import { createIdTokenVerifier, type IdTokenVerifier } from '@drops/auth';

/** Lifetime of development ID tokens, the same as the spec's: one hour. */
export const DEV_TOKEN_LIFETIME_SECONDS = 3600;

const base64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * A development identity provider inside the server: its own RSA key pair, a JWKS, and RS256 ID
 * tokens (Firebase-shaped) for any name, so the whole flow works offline. The verifier reads the
 * key set through an in-process `fetch`, exactly as it would read a real provider's: the tokens
 * go through every check a production token does. Never used in production (see config.ts).
 */
export class DevIdentityProvider {
  readonly issuer = 'https://dev-identity.drops.invalid';
  readonly audience = 'drops-dev';
  readonly #kid = `dev-${randomUUID()}`;
  readonly #privateKey: KeyObject;
  readonly #jwks: { keys: object[] };

  constructor(private readonly clock: () => number = Date.now) {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.#privateKey = privateKey;
    this.#jwks = { keys: [{ ...publicKey.export({ format: 'jwk' }), kid: this.#kid, alg: 'RS256', use: 'sig' }] };
  }

  /** The published key set. */
  get jwks(): { keys: object[] } {
    return this.#jwks;
  }

  /** The provider's clock, ms since the epoch. */
  now(): number {
    return this.clock();
  }

  /**
   * An ID token for `subject`, valid for an hour, signed in now or at `authTime` (seconds: a token
   * refreshed from that sign-in; `auth_time` is what a recent-login mint and a sign-out check).
   */
  mintIdToken(subject: string, authTime?: number): { idToken: string; expiresIn: number } {
    const now = Math.floor(this.clock() / 1000);
    const header = { alg: 'RS256', typ: 'JWT', kid: this.#kid };
    const payload = {
      iss: this.issuer,
      aud: this.audience,
      sub: subject,
      iat: now,
      auth_time: authTime ?? now,
      exp: now + DEV_TOKEN_LIFETIME_SECONDS,
      firebase: { identities: {}, sign_in_provider: 'dev' },
    };
    const input = `${base64url(header)}.${base64url(payload)}`;
    const signature = sign('RSA-SHA256', Buffer.from(input), this.#privateKey).toString('base64url');
    return { idToken: `${input}.${signature}`, expiresIn: DEV_TOKEN_LIFETIME_SECONDS };
  }

  /** A verifier for this provider's tokens, on the same clock as it issues them. */
  createVerifier(): IdTokenVerifier {
    const body = JSON.stringify(this.#jwks);
    return createIdTokenVerifier({
      clock: this.clock,
      issuer: this.issuer,
      audience: this.audience,
      // Loopback so the verifier accepts http:; the fetch below answers in process, nothing listens.
      jwksUrl: 'http://127.0.0.1/.well-known/dev-jwks.json',
      fetch: async () => new Response(body, { headers: { 'content-type': 'application/json', 'cache-control': 'max-age=86400' } }),
    });
  }
}
