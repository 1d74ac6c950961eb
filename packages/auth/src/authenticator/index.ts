export {
  createAuthenticator,
  parseAccept,
  type Authenticator,
  type AuthenticatorOptions,
  type AuthenticateOptions,
  type AuthorizationSource,
  type ResolveAccount,
} from './create-authenticator.js';
export {
  parseAuthorization,
  authorizationOf,
  authorizationOfNodeRequest,
  MAX_AUTHORIZATION_LENGTH,
  type BearerCredential,
  type HeadersLike,
  type NodeRequestLike,
} from './parse-authorization.js';
export { ALL_CREDENTIAL_TYPES, type CredentialType, type Principal } from './principal.js';
