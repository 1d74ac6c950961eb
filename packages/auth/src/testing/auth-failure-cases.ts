import type { LocalIdentityProvider } from './local-identity-provider.js';

/** One way a request fails to authenticate, as the header lines to send. */
export interface AuthFailureCase {
  /** What is wrong: `missing`, `malformed: …`, `unknown`, `revoked`, `expired`, `bad signature`, `duplicate header`. */
  readonly cause: string;
  /** `Authorization` lines to send as they are (none, one, or repeated). */
  readonly headers: ReadonlyArray<readonly [string, string]>;
}

/** What {@link authFailureCases} builds its credentials from. */
export interface AuthFailureCaseInput {
  /** The identity provider the server under test trusts. */
  readonly idp: LocalIdentityProvider;
  /** An API key the server minted and then revoked. */
  readonly revokedApiKey: string;
  /** The account the tokens are for. Default `'failure-cases'`. */
  readonly sub?: string;
}

const authorization = (value: string): ReadonlyArray<readonly [string, string]> => [['Authorization', value]];

/**
 * Every cause of the uniform 401 that does not depend on the route: missing, malformed, unknown,
 * revoked, expired, bad signature, and a repeated `Authorization` header (a valid ID token
 * beside another value). The wrong credential type (an API key on `POST /keys`) is the route's
 * own case. Send each with `rawHttpRequest` and compare `wireSnapshotOf` the answers.
 *
 * @example
 * ```ts
 * for (const { cause, headers } of authFailureCases({ idp, revokedApiKey })) {
 *   const res = await rawRequest(url, rawHttpRequest('GET', '/whoami', headers));
 *   expect(wireSnapshotOf(res), cause).toBe(expected);
 * }
 * ```
 */
export function authFailureCases(input: AuthFailureCaseInput): AuthFailureCase[] {
  const { idp, revokedApiKey } = input;
  const sub = input.sub ?? 'failure-cases';
  const valid = idp.mintIdToken({ sub });
  const other = idp.mintIdToken({ sub: `${sub}-other` });
  const [header, payload] = valid.split('.');
  const signatureOfOther = other.split('.')[2];
  return [
    { cause: 'missing', headers: [] },
    { cause: 'malformed: another scheme', headers: authorization('Basic dXNlcjpwYXNz') },
    { cause: 'malformed: an empty bearer', headers: authorization('Bearer') },
    { cause: 'malformed: two tokens', headers: authorization('Bearer a b') },
    { cause: 'malformed: a short key', headers: authorization('Bearer hp_short') },
    { cause: 'malformed: not a JWT', headers: authorization('Bearer not.a.jwt') },
    { cause: 'unknown', headers: authorization(`Bearer hp_${'A'.repeat(43)}`) },
    { cause: 'revoked', headers: authorization(`Bearer ${revokedApiKey}`) },
    { cause: 'expired', headers: authorization(`Bearer ${idp.mintIdToken({ sub }, { expiresInSeconds: -60 })}`) },
    { cause: 'bad signature', headers: authorization(`Bearer ${header}.${payload}.${signatureOfOther}`) },
    {
      cause: 'duplicate header',
      headers: [
        ['Authorization', `Bearer ${valid}`],
        ['Authorization', `Bearer ${other}`],
      ],
    },
  ];
}
