import { randomBytes } from 'node:crypto';

/** A slug or vanity name: lowercase letters, digits and inner hyphens, 1 to 63 characters. */
export const NAME_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** A random slug: 10 base32 characters, 50 bits. */
export function randomSlug(): string {
  const bytes = randomBytes(10);
  let slug = '';
  for (const byte of bytes) slug += ALPHABET[byte & 31];
  return slug;
}
