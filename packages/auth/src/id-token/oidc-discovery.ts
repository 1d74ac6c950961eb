import type { DiscoveredKeySetOptions } from './discovered-key-set.js';
import { isHttpsOrLoopbackUrl } from './is-loopback-url.js';
import type { KeySource } from './key-source.js';

/**
 * An OpenID Connect discovery document as `oidc()` sets it: where it is, and the code that reads
 * it. The code travels with the preset, not with `createIdTokenVerifier`, so an app that never
 * calls `oidc()` (a Firebase-only app, or one that gives `jwksUrl`) does not bundle it.
 */
export interface OidcDiscovery {
  /** `<issuer>/.well-known/openid-configuration` (OpenID Connect Discovery 1.0, section 4). */
  readonly url: string;
  /** The key set found through the document. @internal */
  readonly keySource: (options: DiscoveredKeySetOptions) => KeySource;
}

/** Whether a value is an {@link OidcDiscovery}: what the verifier's `discovery` option accepts. @internal */
export function isOidcDiscovery(value: unknown): value is OidcDiscovery {
  const { url, keySource } = (typeof value === 'object' && value !== null ? value : {}) as Partial<OidcDiscovery>;
  return typeof url === 'string' && isHttpsOrLoopbackUrl(url) && typeof keySource === 'function';
}
