import { API_KEY_PREFIX } from './api-key-format.js';
import { base64UrlEncode, randomBytes } from '../platform/runtime-crypto.js';
import { keyIdOf, keyPrefixOf } from './key-id.js';

/** Fills a buffer of `size` bytes with random bytes. Defaults to the runtime's CSPRNG. */
export type RandomSource = (size: number) => Uint8Array;

/** A freshly generated key: the secret (shown once) and what may be stored. */
export interface GeneratedApiKey {
  /** The full secret, `hp_` + 43 base64url characters. Return it once; never store or log it. */
  readonly secret: string;
  /** Lowercase hex SHA-256 of the secret: the only thing that identifies the key in storage. */
  readonly id: string;
  /** First 10 characters of the secret, for listings. */
  readonly prefix: string;
}

const defaultRandom: RandomSource = (size) => randomBytes(size);

/**
 * Generates an API key from 32 random bytes.
 *
 * @param random - source of randomness; defaults to the runtime's CSPRNG (`crypto.randomBytes` on Node,
 *   `crypto.getRandomValues` elsewhere). Pass a deterministic
 *   one in tests only.
 * @example
 * ```ts
 * const { secret, id, prefix } = generateApiKey();
 * // secret: 'hp_…' (46 chars), id: 64 hex chars, prefix: secret.slice(0, 10)
 * ```
 */
export function generateApiKey(random: RandomSource = defaultRandom): GeneratedApiKey {
  const bytes = random(32);
  if (bytes.length !== 32) {
    throw new TypeError(`random source must return 32 bytes, got ${bytes.length}`);
  }
  const secret = API_KEY_PREFIX + base64UrlEncode(bytes);
  return { secret, id: keyIdOf(secret), prefix: keyPrefixOf(secret) };
}
