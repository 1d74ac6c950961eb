export {
  createKeyManager,
  MAX_KEY_NAME_LENGTH,
  DEFAULT_MAX_KEYS_PER_ACCOUNT,
  DEFAULT_MINT_RATE_LIMIT,
  type MintRateLimit,
  type KeyManager,
  type KeyManagerOptions,
} from './create-key-manager.js';
export { toKeyJson, type KeyJson, type MintedKeyJson } from './key-json.js';
