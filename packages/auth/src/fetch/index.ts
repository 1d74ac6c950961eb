export { respondWithError } from './respond-with-error.js';
export {
  authenticateRequest,
  withAuth,
  type WithAuthOptions,
  type AuthenticatedHandler,
} from './with-auth.js';
export { keysHandler, type KeysHandlerOptions } from './keys-handler.js';
export type { RouteContext, ClientOrRouteContext } from './request-info.js';
export { leakedKeysHandler, type LeakedKeysHandlerOptions } from './leaked-keys-handler.js';
