export {
  createKeyManager,
  DEFAULT_MAX_KEYS_PER_ACCOUNT,
  DEFAULT_MINT_RATE_LIMIT,
  type MintRateLimit,
  type KeyManager,
  type KeyManagerOptions,
} from './create-key-manager.js';
export { MAX_KEY_NAME_LENGTH, type MintOptions } from './mint-options.js';
export { toKeyJson, type KeyJson, type MintedKeyJson } from './key-json.js';
