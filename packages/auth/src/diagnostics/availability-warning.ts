import { UnavailableError } from '../errors/unavailable-error.js';

/** What a dependency's failures and successes tell its {@link availabilityWarning}. @internal */
export interface AvailabilityWarning {
  /** A call failed: an `UnavailableError` is said once (see `perCause`). */
  failed(error: unknown): void;
  /** A call succeeded: after a warning, says so once. */
  recovered(): void;
}

/** What {@link availabilityWarning} says and how often. @internal */
export interface AvailabilityWarningOptions {
  /** The dependency, as the message names it: `key store`, `identity provider https://…`. */
  readonly what: string;
  /** What answers 503 while it is down: `API keys`, `ID tokens`. */
  readonly answering: string;
  readonly warn: (message: string) => void;
  /** Say each new cause (a misconfiguration changing), or only the first of an outage. */
  readonly perCause: boolean;
}

/**
 * Says once, at warn, that a dependency cannot be used and why (a database down, a discovery
 * document naming another issuer), instead of a 503 on every request with the cause only in
 * `err.cause`; and once when it can be used again. The words are the cause's message, about the
 * dependency: never a credential.
 * @internal
 */
export function availabilityWarning(options: AvailabilityWarningOptions): AvailabilityWarning {
  const { what, answering, warn, perCause } = options;
  let said: string | undefined;
  return {
    failed(error) {
      if (!(error instanceof UnavailableError)) return;
      const cause = error.cause instanceof Error ? error.cause.message : 'it did not answer';
      if (said !== undefined && (!perCause || said === cause)) return;
      said = cause;
      warn(`drops-auth: ${what} unusable, ${answering} answer 503: ${cause}`);
    },
    recovered() {
      if (said === undefined) return;
      said = undefined;
      warn(`drops-auth: ${what} usable again`);
    },
  };
}
