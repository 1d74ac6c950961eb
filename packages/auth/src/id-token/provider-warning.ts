import { availabilityWarning, type AvailabilityWarning } from '../diagnostics/availability-warning.js';

/** What a verifier tells its `onWarning` about its identity provider. @internal */
export type ProviderWarning = AvailabilityWarning;

/**
 * Says once, at warn, why an identity provider cannot be used (a discovery document naming another
 * issuer, a key set that does not load, an outage), each new cause once, and once when it can be
 * used again. Never a token.
 * @internal
 */
export function providerWarning(issuer: string, warn: (message: string) => void): ProviderWarning {
  return availabilityWarning({ what: `identity provider ${issuer}`, answering: 'ID tokens', warn, perCause: true });
}
