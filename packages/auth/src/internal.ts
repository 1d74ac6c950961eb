// `@drops/auth/internal`: helpers shared by the drops-auth adapters (@drops/auth-express,
// @drops/auth-koa, @drops/auth-postgres). NOT a public API: exempt from semver, it may change in
// any release. Applications import from `@drops/auth` and `@drops/auth/testing` only.
export {
  readJsonBody,
  readBodyBytes,
  parseJsonText,
  DEFAULT_KEYS_BODY_LIMIT,
  type ReadJsonBodyOptions,
} from './http/read-json-body.js';
export {
  createLeakedKeyRoutes,
  REVOKE_CREDENTIALS_PATH,
  GITHUB_SECRET_SCANNING_PATH,
  type LeakedKeyRoutes,
  type LeakedKeyRequest,
} from './leaked-keys/create-leaked-key-routes.js';
export type { RouteAnswer } from './leaked-keys/route-answer.js';
export { parseAccept } from './authenticator/create-authenticator.js';
export { authorizationOfNodeRequest, type NodeRequestLike } from './authenticator/parse-authorization.js';
export { LastUsedBatcher, type LastUsedBatcherOptions, type LastUseInfo } from './key-store/last-used-batcher.js';
export { mintOptionsFromBody } from './keys/mint-options.js';
export { parseEventCursor } from './key-store/event-cursor.js';
export { RecentMap } from './recent-map.js';
export {
  verifyJwsTestVectors,
  type JwsTestVectorFile,
  type JwsTestVectorVerdicts,
} from './platform/jws-test-vectors.js';
