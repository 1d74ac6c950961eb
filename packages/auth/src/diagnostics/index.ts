export {
  DIAGNOSTICS_CHANNELS,
  type AuthenticateMessage,
  type JwksFetchMessage,
  type KeyStoreMessage,
  type KeyStoreOperation,
  type RevocationMessage,
} from './diagnostics-messages.js';
