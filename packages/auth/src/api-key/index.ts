export {
  API_KEY_PREFIX,
  API_KEY_LENGTH,
  KEY_PREFIX_LENGTH,
  API_KEY_PATTERN,
  KEY_ID_PATTERN,
  isApiKeyFormat,
  isKeyId,
} from './api-key-format.js';
export { keyIdOf, keyPrefixOf } from './key-id.js';
export { generateApiKey, type GeneratedApiKey, type RandomSource } from './generate-api-key.js';
