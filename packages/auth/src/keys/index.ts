export {
  createKeyManager,
  MAX_KEY_NAME_LENGTH,
  type KeyManager,
  type KeyManagerOptions,
} from './create-key-manager.js';
export { toKeyJson, type KeyJson, type MintedKeyJson } from './key-json.js';
