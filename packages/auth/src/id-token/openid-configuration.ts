import { isHttpsOrLoopbackUrl } from './is-loopback-url.js';

/** What an OpenID Provider's discovery document says that the verifier uses. */
export interface OpenIdConfiguration {
  /** Where the provider's key set is published (`jwks_uri`). */
  readonly jwksUrl: URL;
  /** `id_token_signing_alg_values_supported`; `undefined` when the document does not say. */
  readonly algorithms: readonly string[] | undefined;
}

/**
 * Reads an OpenID Provider Configuration document (OpenID Connect Discovery 1.0, section 3):
 * `issuer` must equal the configured issuer exactly (section 4.3: a document that names another
 * issuer is refused, whoever served it), `jwks_uri` must be `https:` (`http:` only on loopback),
 * and `id_token_signing_alg_values_supported`, when present, must be a list of strings. Throws for
 * anything else: the caller treats that as the provider being unavailable, never a bad token.
 */
export function readOpenIdConfiguration(document: unknown, issuer: string): OpenIdConfiguration {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new Error('the discovery document is not a JSON object');
  }
  const { issuer: named, jwks_uri: jwksUri, id_token_signing_alg_values_supported: advertised } = document as Record<string, unknown>;
  if (named !== issuer) throw new Error('the discovery document names another issuer');
  if (typeof jwksUri !== 'string' || !isHttpsOrLoopbackUrl(jwksUri)) {
    throw new Error('the discovery document has no https jwks_uri');
  }
  if (advertised !== undefined && !(Array.isArray(advertised) && advertised.every((a) => typeof a === 'string'))) {
    throw new Error('id_token_signing_alg_values_supported is not a list of strings');
  }
  return { jwksUrl: new URL(jwksUri), algorithms: advertised as readonly string[] | undefined };
}
