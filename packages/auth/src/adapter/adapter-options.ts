import * as z from 'zod/mini';
import type { Authenticator } from '../authenticator/create-authenticator.js';
import type { DropsAuthError } from '../errors/drops-auth-error.js';
import type { KeyManager } from '../keys/create-key-manager.js';
import { functionOption, lazySchema, parseOptions } from '../options/parse-options.js';

/** The options every adapter's `dropsAuth()` takes. `R` is the framework's request (or context). */
export interface AdapterOptions<R = unknown> {
  /** From `createAuthenticator()`. */
  authenticator: Authenticator;
  /** From `createKeyManager()`. Needed only for the `/keys` and leaked-key routes. */
  keys?: KeyManager;
  /**
   * Called with every drops-auth error before it is answered, e.g. to log
   * `UnauthenticatedError.reason` (never sent to the client). Must not throw.
   */
  onError?: (error: DropsAuthError, request: R) => void;
}

const schema = /* @__PURE__ */ lazySchema(() =>
  z.strictObject({
    authenticator: z.custom<Authenticator>(
      (v) =>
        typeof (v as Partial<Authenticator> | null)?.authenticate === 'function' &&
        typeof (v as Authenticator).authenticateOptional === 'function',
      { error: 'expected createAuthenticator()' },
    ),
    keys: z.optional(
      z.custom<KeyManager>(
        (v) =>
          ['mint', 'list', 'revoke', 'events', 'revokeBySecret'].every(
            (m) => typeof (v as unknown as Record<string, unknown> | null)?.[m] === 'function',
          ),
        { error: 'expected createKeyManager()' },
      ),
    ),
    onError: z.optional(functionOption<(error: DropsAuthError, request: unknown) => void>()),
  }),
);

/**
 * Parses the options of an adapter's `dropsAuth()` once, when it is called: a missing or wrong
 * `authenticator`, a `keys` not from `createKeyManager()`, an `onError` that is not a function or
 * an unknown option is a `TypeError` naming `where`, never a surprise on the first request.
 *
 * @example
 * ```ts
 * import { parseAdapterOptions } from '@drops/auth/adapter';
 *
 * export function dropsAuth(options: AdapterOptions<FastifyRequest>) {
 *   const { authenticator, keys, onError } = parseAdapterOptions(options, 'dropsAuth');
 *   // …
 * }
 * ```
 */
export function parseAdapterOptions<R>(options: AdapterOptions<R>, where: string): Readonly<AdapterOptions<R>> {
  return parseOptions(schema(), options, where) as AdapterOptions<R>;
}
