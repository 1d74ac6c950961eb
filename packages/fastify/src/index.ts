import './drops-auth-request.js';

export { dropsAuth, type DropsAuthOptions, type DropsAuthFastify } from './drops-auth.js';
export type { AuthHook, AuthHookOptions } from './auth-hook.js';
export type { DropsAuthErrorHandler } from './error-handler.js';
export type { KeysRoutesOptions } from './keys-routes.js';
export type { LeakedKeysRoutesOptions } from './leaked-keys-routes.js';
export { respondWithError } from './respond-with-error.js';
export { principalOf } from './principal-of.js';
