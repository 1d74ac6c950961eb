export { DropsAuthError, isDropsAuthError, type ErrorBody } from './drops-auth-error.js';
export {
  UnauthenticatedError,
  UNAUTHENTICATED_MESSAGE,
  BEARER_CHALLENGE,
  type UnauthenticatedReason,
} from './unauthenticated-error.js';
export type { UnauthenticatedOptions } from './unauthenticated-answer.js';
export { UnavailableError, type UnavailableDependency } from './unavailable-error.js';
export { InvalidRequestError } from './invalid-request-error.js';
export { NotFoundError } from './not-found-error.js';
export { PayloadTooLargeError } from './payload-too-large-error.js';
export { MethodNotAllowedError } from './method-not-allowed-error.js';
export { KeyLimitError, type KeyLimitErrorBody } from './key-limit-error.js';
export { ConflictError } from './conflict-error.js';
export { RateLimitedError } from './rate-limited-error.js';
export { InvalidSignatureError } from './invalid-signature-error.js';
