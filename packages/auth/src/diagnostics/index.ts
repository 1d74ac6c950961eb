export {
  DIAGNOSTICS_CHANNELS,
  type AuthenticateMessage,
  type JwksFetchMessage,
  type JwksKeySkippedMessage,
  type JwksKeySkipReason,
  type KeyStoreMessage,
  type KeyStoreOperation,
  type RevocationMessage,
} from './diagnostics-messages.js';
