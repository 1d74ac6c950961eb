import { channelOf } from './diagnostics-channel.js';
import {
  DIAGNOSTICS_CHANNELS,
  type AuthenticateMessage,
  type JwksFetchMessage,
  type JwksKeySkippedMessage,
  type KeyStoreMessage,
  type RevocationMessage,
} from './diagnostics-messages.js';

// One object per channel, looked up once: publishers check `hasSubscribers` on it per call.
export const authenticateChannel = channelOf<AuthenticateMessage>(DIAGNOSTICS_CHANNELS.authenticate);
export const jwksFetchChannel = channelOf<JwksFetchMessage>(DIAGNOSTICS_CHANNELS.jwksFetch);
export const jwksKeySkippedChannel = channelOf<JwksKeySkippedMessage>(DIAGNOSTICS_CHANNELS.jwksKeySkipped);
export const keyStoreChannel = channelOf<KeyStoreMessage>(DIAGNOSTICS_CHANNELS.keyStore);
export const revocationChannel = channelOf<RevocationMessage>(DIAGNOSTICS_CHANNELS.revocation);
