// Test helpers with no test-runner dependency: safe to import from a development server too.
// The KeyStore conformance suite lives at `@drops/auth/testing/conformance`.
export { sampleKeyRecord } from './sample-key-record.js';
export * from './local-identity-provider.js';
export {
  DevIdentityProvider,
  devIdentityAllowed,
  type DevIdentityProviderOptions,
  type DevIdToken,
  type DevTokenAnswer,
} from './dev-identity-provider.js';
export {
  LocalSecretScanningKeys,
  newSecretScanningKey,
  type LocalSecretScanningKeysOptions,
  type SecretScanningSigningKey,
  type SecretScanningPublicKeyEntry,
  type SecretScanningSignOptions,
  type SecretScanningHeaders,
} from './local-secret-scanning-keys.js';
export {
  snapshotOf,
  UNIFORM_401,
  UNIFORM_401_BODY,
  uniform401Of,
  UNAUTHENTICATED_VARIANTS,
  COMPARED_HEADERS,
  type AnswerSnapshot,
} from './uniform-401.js';
export { startTcpProxy, type TcpProxy, type TcpProxyOptions } from './tcp-proxy.js';
export {
  rawRequest,
  rawHttpRequest,
  sendRawRequest,
  wireSnapshotOf,
  PER_REQUEST_HEADERS,
  type RawResponse,
  type RawRequestOptions,
} from './raw-http.js';
export { authFailureCases, type AuthFailureCase, type AuthFailureCaseInput } from './auth-failure-cases.js';
export {
  uniform401WireSweep,
  type Uniform401WireSweep,
  type Uniform401WireSweepInput,
  type WireRoute,
} from './uniform-401-wire-sweep.js';
export {
  LocalWebhookReceiver,
  type LocalWebhookReceiverOptions,
  type ReceivedWebhook,
} from './local-webhook-receiver.js';
