export { dropsAuth, type DropsAuthOptions, type DropsAuthHono } from './drops-auth.js';
export type { AuthMiddlewareOptions } from './auth-middleware.js';
export type { ClientIp } from './client-info.js';
export type { DropsAuthVariables, OptionalDropsAuthVariables } from './drops-auth-variables.js';
export type { KeysRoutesOptions } from './keys-routes.js';
export type { LeakedKeysRoutesOptions } from './leaked-keys-routes.js';
