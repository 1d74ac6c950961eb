export {
  createAuthenticator,
  type Authenticator,
  type AuthenticatorOptions,
  type AuthenticateOptions,
  type AuthorizationSource,
  type ResolveAccount,
} from './create-authenticator.js';
export {
  parseAuthorization,
  authorizationOf,
  MAX_AUTHORIZATION_LENGTH,
  type AuthorizationValue,
  type BearerCredential,
  type HeadersLike,
} from './parse-authorization.js';
export { ALL_CREDENTIAL_TYPES, type CredentialType, type Principal } from './principal.js';
