import { DiscoveredKeySet } from './discovered-key-set.js';
import { HTTPS_OR_LOOPBACK_MESSAGE, isHttpsOrLoopbackUrl } from './is-loopback-url.js';
import type { OidcDiscovery } from './oidc-discovery.js';

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
export const FIREBASE_JWKS_URL = 'https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com';

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

/** What `oidc()` returns: the issuer and audience, and the discovery document the key set is found through. */
export interface OidcProviderSettings {
  readonly issuer: string;
  readonly audience: string | readonly string[];
  /** Where the discovery document is (`discovery.url`), and the code that reads it. */
  readonly discovery: OidcDiscovery;
}

/**
 * The preset of any OpenID Connect provider, found through discovery: the verifier reads
 * `<issuer>/.well-known/openid-configuration` (its `issuer` must equal `issuer` exactly, as the
 * tokens' `iss` must), takes the key set from its `jwks_uri`, and refuses a token `alg` the
 * document does not advertise in `id_token_signing_alg_values_supported`. The document is cached
 * by the key set's rules (its `Cache-Control`, one fetch at a time, stale if a refresh fails, a 503
 * when neither can be had). `issuer` must be `https:` (`http:` only on loopback, for tests).
 * Algorithms beyond RS256 are opt-in, with the verifier's `algorithms` option.
 *
 * @example
 * ```ts
 * const verifier = createIdTokenVerifier({
 *   ...oidc({ issuer: 'https://my-tenant.us.auth0.com/', audience: 'https://api.example.com' }),
 *   maxLifetimeSeconds: 86_400,
 * });
 * ```
 */
export function oidc(options: { readonly issuer: string; readonly audience: string | readonly string[] }): OidcProviderSettings {
  const unknown =
    typeof options === 'object' && options !== null ? Object.keys(options).filter((k) => k !== 'issuer' && k !== 'audience') : [];
  if (unknown.length > 0) throw new TypeError(`oidc(): unknown option "${unknown[0]}"`);
  const { issuer, audience } = options ?? ({} as never);
  if (typeof issuer !== 'string' || !isHttpsOrLoopbackUrl(issuer)) {
    throw new TypeError(`oidc(): issuer ${HTTPS_OR_LOOPBACK_MESSAGE}`);
  }
  const audienceOk =
    (typeof audience === 'string' && audience.length > 0) ||
    (Array.isArray(audience) && audience.length > 0 && audience.every((a) => typeof a === 'string' && a.length > 0));
  if (!audienceOk) throw new TypeError('oidc(): audience must be a non-empty string or list of them');
  const discovery: OidcDiscovery = {
    url: `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`,
    keySource: (keySetOptions) => new DiscoveredKeySet(keySetOptions),
  };
  return { issuer, audience, discovery };
}
