import { assertVerifiesIdTokens } from '../authenticator/authenticator-traits.js';
import { parseAccept, type Authenticator } from '../authenticator/create-authenticator.js';
import type { CredentialType } from '../authenticator/principal.js';

/** Options of every adapter's `requireAuth()` and `optionalAuth()`. */
export interface AuthRouteOptions {
  /**
   * The credential types the route accepts: `['api_key']`, `['id_token']` or both. Default both.
   * A credential of another type is the uniform 401.
   */
  accept?: readonly CredentialType[];
}

/**
 * Parses the options of an adapter's `requireAuth()`/`optionalAuth()` once, when the route is
 * built: anything but `{ accept }` is a `TypeError` naming `where`, and so is a route that takes
 * ID tokens only over an authenticator created without an `idTokenVerifier` (every request to it
 * would be a 401).
 *
 * @example
 * ```ts
 * import { parseAuthRouteOptions } from '@drops/auth/adapter';
 *
 * const accept = parseAuthRouteOptions({ accept: ['id_token'] }, authenticator, 'requireAuth()'); // ['id_token']
 * ```
 */
export function parseAuthRouteOptions(
  options: AuthRouteOptions | undefined,
  authenticator: Authenticator,
  where: string,
): readonly CredentialType[] {
  if (options === undefined) return parseAccept(undefined);
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`${where}: options must be an object such as { accept: ['id_token'] }`);
  }
  for (const key of Object.keys(options)) {
    if (key !== 'accept') throw new TypeError(`${where}: unknown option "${key}"`);
  }
  let accept: readonly CredentialType[];
  try {
    accept = parseAccept(options.accept);
  } catch (error) {
    throw new TypeError(`${where}: ${(error as Error).message}`);
  }
  if (!accept.includes('api_key')) assertVerifiesIdTokens(authenticator, where);
  return accept;
}
