export {
  createKeyManager,
  DEFAULT_MAX_KEYS_PER_ACCOUNT,
  DEFAULT_MINT_RATE_LIMIT,
  type MintRateLimit,
  type KeyManager,
  type KeyManagerOptions,
} from './create-key-manager.js';
export { MAX_KEY_NAME_LENGTH, type MintOptions } from './mint-options.js';
export { toKeyJson, type KeyJson, type MintedKeyJson, type RolledKeyJson } from './key-json.js';
export { DEFAULT_ROLL_GRACE_SECONDS, MAX_ROLL_GRACE_SECONDS, type RollOptions } from './roll-options.js';
export { toKeyEventJson, type KeyEventJson } from './key-event-json.js';
export { DEFAULT_KEY_EVENTS_LIMIT, MAX_KEY_EVENTS_LIMIT, type KeyEventsPageRequest } from './events-page.js';
export type { RevokeBySecretContext, RevokeBySecretResult } from './revoke-by-secret.js';
export { SESSION_ISSUER, sessionPrincipal, type SignedInSession } from './session-principal.js';
