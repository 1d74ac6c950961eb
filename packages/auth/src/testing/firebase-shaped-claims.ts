/** What {@link firebaseShapedClaims} fills in. */
export interface FirebaseShapedClaimsInput {
  readonly issuer: string;
  readonly audience: string;
  readonly sub: string;
  /** Now, in seconds since the epoch: `iat` and `auth_time` (signed in just now). */
  readonly nowSeconds: number;
  readonly expiresInSeconds: number;
  /** `firebase.sign_in_provider`. */
  readonly signInProvider: string;
  /** `auth_time`, in seconds: a token refreshed from that earlier sign-in. Default `nowSeconds`. */
  readonly authTimeSeconds?: number;
}

/**
 * The claims of an ID token as Firebase issues them, signed in now: what the local and the
 * development identity providers both mint (`auth_time` is what a recent-login mint checks).
 */
export function firebaseShapedClaims(input: FirebaseShapedClaimsInput): Record<string, unknown> {
  const { issuer, audience, sub, nowSeconds, expiresInSeconds, signInProvider, authTimeSeconds = nowSeconds } = input;
  return {
    iss: issuer,
    aud: audience,
    auth_time: authTimeSeconds,
    sub,
    iat: nowSeconds,
    exp: nowSeconds + expiresInSeconds,
    firebase: { identities: {}, sign_in_provider: signInProvider },
  };
}
