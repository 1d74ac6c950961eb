export { dropsAuth, type DropsAuthOptions, type DropsAuthKoa } from './drops-auth.js';
export type { AuthMiddlewareOptions } from './auth-middleware.js';
export type { DropsAuthState, OptionalDropsAuthState } from './drops-auth-state.js';
export { respondWithError } from './respond-with-error.js';
export type { KeysRouterOptions } from './keys-router.js';
export type { LeakedKeysRouterOptions } from './leaked-keys-router.js';
export { principalOf } from './principal-of.js';
