// `req.auth` on Express's `Request` type (the `declare global` of request-auth.ts): a type-only
// re-export keeps it in the bundled declarations, where a bare import would be dropped from the
// JavaScript build with a warning (the package has no side effects).
export type {} from './request-auth.js';

export { dropsAuth, type DropsAuthOptions, type DropsAuthExpress } from './drops-auth.js';
export type { AuthMiddlewareOptions } from './auth-middleware.js';
export type { KeysRouterOptions } from './keys-router.js';
export type { LeakedKeysRouterOptions } from './leaked-keys-router.js';
export type { ErrorHandlerOptions } from './error-handler.js';
export { respondWithError } from './respond-with-error.js';
export { principalOf } from './principal-of.js';
