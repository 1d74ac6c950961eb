/** Where an identity provider publishes its keys, and what its ID tokens must say. */
export interface IdentityProviderSettings {
  /** The exact `iss` claim expected. */
  readonly issuer: string;
  /** The `aud` claim expected: one audience, or several of which the token must name one. */
  readonly audience: string | readonly string[];
  /** The provider's JSON Web Key Set (HTTPS; plain HTTP only on a loopback host). */
  readonly jwksUrl: string;
}

/** Google's JWKS for Firebase Authentication (Identity Platform) ID tokens. */
export const FIREBASE_JWKS_URL =
  'https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com';

/**
 * The Firebase Authentication preset: issuer `https://securetoken.google.com/<projectId>`,
 * audience `<projectId>`, Google's `securetoken` JWKS.
 *
 * @example
 * ```ts
 * const verifier = createIdTokenVerifier({ ...firebase({ projectId: 'my-project' }) });
 * ```
 */
export function firebase(options: { readonly projectId: string }): IdentityProviderSettings {
  const unknown = typeof options === 'object' && options !== null ? Object.keys(options).filter((k) => k !== 'projectId') : [];
  if (unknown.length > 0) throw new TypeError(`firebase(): unknown option "${unknown[0]}"`);
  const projectId = options?.projectId;
  // Firebase project ids: 6-30 chars of lowercase letters, digits and hyphens.
  if (typeof projectId !== 'string' || !/^[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/.test(projectId)) {
    throw new TypeError('firebase(): projectId must be a Firebase project id such as "my-project"');
  }
  return {
    issuer: `https://securetoken.google.com/${projectId}`,
    audience: projectId,
    jwksUrl: FIREBASE_JWKS_URL,
  };
}
