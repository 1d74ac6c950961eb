export {
  DEFAULT_REVOKE_RATE_LIMIT,
  DEFAULT_SECRET_SCANNING_RATE_LIMIT,
  DEFAULT_REVOKE_BODY_LIMIT,
  DEFAULT_SECRET_SCANNING_BODY_LIMIT,
  type LeakedKeysOptions,
} from './leaked-keys-options.js';
export { MAX_CREDENTIALS_PER_REVOKE } from './revoke-credentials-request.js';
