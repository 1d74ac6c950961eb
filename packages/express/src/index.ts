import './request-auth.js';

export { dropsAuth, type DropsAuthOptions, type DropsAuthExpress } from './drops-auth.js';
export { requireAuth, optionalAuth, type AuthMiddlewareOptions } from './auth-middleware.js';
export { keysRouter, type KeysRouterOptions } from './keys-router.js';
export { leakedKeysRouter, type LeakedKeysRouterOptions } from './leaked-keys-router.js';
export { errorHandler, type ErrorHandlerOptions } from './error-handler.js';
export { sendError } from './send-error.js';
export { principalOf } from './principal-of.js';
