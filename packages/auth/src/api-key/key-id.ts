import { sha256Hex } from '../platform/runtime-crypto.js';
import { KEY_PREFIX_LENGTH } from './api-key-format.js';

/**
 * The id of a key: the lowercase hex SHA-256 of the whole 46-character secret. Safe to log and
 * to store; the secret cannot be recovered from it.
 *
 * @example
 * ```ts
 * keyIdOf('hp_...'); // '3f0c…' (64 hex characters)
 * ```
 */
export function keyIdOf(secret: string): string {
  return sha256Hex(secret);
}

/**
 * The first 10 characters of a secret, kept as metadata so people can tell keys apart.
 *
 * @example
 * ```ts
 * keyPrefixOf('hp_AbCdEfGh…'); // 'hp_AbCdEfG'
 * ```
 */
export function keyPrefixOf(secret: string): string {
  return secret.slice(0, KEY_PREFIX_LENGTH);
}
