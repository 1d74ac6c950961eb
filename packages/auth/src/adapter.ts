// `@drops/auth/adapter`: the kit an HTTP adapter is written with (the first-party Express, Koa and
// fetch adapters use it and nothing else of the core's insides): the framework-free route cores,
// reading the credential and the client from a request, writing an answer or an error as its
// exact bytes. See https://github.com/drops-dev/drops-auth/blob/main/docs/adapters.md, "Writing an adapter".
export {
  createKeyRoutes,
  isIdTokenOnlyKeyRoute,
  type KeyRoutes,
  type KeyRouteRequest,
} from './key-routes/create-key-routes.js';
export type { KeyRoutesOptions } from './key-routes/key-routes-options.js';
export { KEY_ROUTES, KEY_ROUTE_PATHS, type KeyRoute, type KeyRouteCredentials, type KeyRouteName } from './key-routes/key-route-table.js';
export {
  createLeakedKeyRoutes,
  REVOKE_CREDENTIALS_PATH,
  GITHUB_SECRET_SCANNING_PATH,
  type LeakedKeyRoutes,
  type LeakedKeyRequest,
} from './leaked-keys/create-leaked-key-routes.js';
export type { RouteAnswer } from './leaked-keys/route-answer.js';
export { parseAccept } from './authenticator/create-authenticator.js';
export { answerOfError, assertVerifiesIdTokens, isErrorAnswer } from './authenticator/authenticator-traits.js';
export { parseAuthRouteOptions, type AuthRouteOptions } from './adapter/auth-route-options.js';
export { createAuthCheck, type AuthCheck, type AuthCheckOptions, type AuthAnswer } from './adapter/auth-check.js';
export { authorizationOfNodeRequest, type NodeRequestLike } from './authenticator/parse-authorization.js';
export { requestInfoOfNodeRequest, type NodeClientLike } from './adapter/node-request-info.js';
export { requestInfoOf as requestInfoOfRequest } from './fetch/request-info.js';
export { canonicalHeaders } from './adapter/canonical-headers.js';
export { writeNodeAnswer, type NodeResponseLike } from './adapter/write-node-answer.js';
export { answerResponse } from './adapter/answer-response.js';
export { keyExpirationHeader, KEY_EXPIRATION_HEADER, KEY_EXPIRATION_WARNING_SECONDS } from './adapter/key-expiration-header.js';
export { parseAdapterOptions, type AdapterOptions } from './adapter/adapter-options.js';
export {
  readJsonBody,
  readBodyBytes,
  parseJsonText,
  DEFAULT_KEYS_BODY_LIMIT,
  type ReadJsonBodyOptions,
} from './http/read-json-body.js';
export { readRequestBytes, readRequestJson } from './fetch/read-request-json.js';
