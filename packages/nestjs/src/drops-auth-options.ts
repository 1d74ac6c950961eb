import type { Authenticator, DropsAuthError, KeyManager, KeyRoutesOptions, LeakedKeysOptions } from '@drops/auth';
import { createKeyRoutes, createLeakedKeyRoutes, parseAdapterOptions, type KeyRoutes, type LeakedKeyRoutes } from '@drops/auth/adapter';

/** Options of {@link DropsAuthModule.forRoot}. */
export interface DropsAuthModuleOptions {
  /** From `createAuthenticator()`. */
  authenticator: Authenticator;
  /** From `createKeyManager()`. With it, the `/keys` routes are mounted at `keysPath`. */
  keys?: KeyManager;
  /**
   * Where the `/keys` routes answer, from the server's root (a global prefix is not added):
   * `'keys'` (the default) or e.g. `'api/keys'`. Needs `keys`.
   */
  keysPath?: string;
  /** Options of the `/keys` routes (`bodyLimit`): `KeyRoutesOptions` of `@drops/auth`. */
  keyRoutes?: KeyRoutesOptions;
  /**
   * Given (`{}` for the defaults), also mounts the routes that kill a leaked key, which take no
   * credential: `POST /credentials/revoke`, and `POST /secret-scanning/github` with
   * `githubSecretScanning`. `LeakedKeysOptions` of `@drops/auth`. Needs `keys`.
   */
  leakedKeys?: LeakedKeysOptions;
  /**
   * Called with every drops-auth error before it is answered (the framework's request as the
   * second argument), e.g. to log `UnauthenticatedError.reason`. Must not throw.
   */
  onError?: (error: DropsAuthError, request: unknown) => void;
}

/** The module's options once checked: what the guards, the filter and the key routes use. @internal */
export interface DropsAuthContext {
  readonly authenticator: Authenticator;
  readonly onError: ((error: DropsAuthError, request: unknown) => void) | undefined;
  /** The `/keys` core and its path (`/keys`), when `keys` was given. */
  readonly keyRoutes: { readonly routes: KeyRoutes; readonly path: string } | undefined;
  /** The leaked-key core, when `leakedKeys` was given. */
  readonly leakedKeyRoutes: LeakedKeyRoutes | undefined;
}

const WHERE = 'DropsAuthModule.forRoot()';
const PATH = /^[A-Za-z0-9._~!$&'()+,;=:@%-]+(?:\/[A-Za-z0-9._~!$&'()+,;=:@%-]+)*$/;

/**
 * Checks the options of `forRoot()` once, at start-up: an unknown option, a bad path or a missing
 * `keys` for `keysPath` is a `TypeError`, never a surprise on the first request.
 * @internal
 */
export function parseModuleOptions(options: DropsAuthModuleOptions): DropsAuthContext {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`${WHERE}: options must be an object such as { authenticator, keys }`);
  }
  const { keysPath, keyRoutes, leakedKeys, ...adapterOptions } = options;
  const { authenticator, keys, onError } = parseAdapterOptions(adapterOptions, WHERE);
  if (keysPath !== undefined && keys === undefined) {
    throw new TypeError(`${WHERE}: keysPath needs keys: createKeyManager({ keyStore })`);
  }
  if (keyRoutes !== undefined && keys === undefined) {
    throw new TypeError(`${WHERE}: keyRoutes needs keys: createKeyManager({ keyStore })`);
  }
  if (leakedKeys !== undefined && keys === undefined) {
    throw new TypeError(`${WHERE}: leakedKeys needs keys: createKeyManager({ keyStore })`);
  }
  if (keys === undefined) return { authenticator, onError, keyRoutes: undefined, leakedKeyRoutes: undefined };
  const trimmed = typeof keysPath === 'string' ? keysPath.replace(/^\/+|\/+$/g, '') : keysPath === undefined ? 'keys' : null;
  if (trimmed === null || !PATH.test(trimmed)) {
    throw new TypeError(`${WHERE}: keysPath must be a path such as 'keys' or 'api/keys'`);
  }
  return {
    authenticator,
    onError,
    keyRoutes: { routes: createKeyRoutes(authenticator, keys, keyRoutes, WHERE), path: `/${trimmed}` },
    leakedKeyRoutes: leakedKeys === undefined ? undefined : createLeakedKeyRoutes(keys, leakedKeys, WHERE),
  };
}
