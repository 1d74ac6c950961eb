import { isCanonicalBase64url } from '../id-token/decode-compact-jwt.js';
import { base64UrlDecode } from '../platform/runtime-crypto.js';

// Standard base64 (RFC 4648 section 4) with its padding: what GitHub's signature header and PEM bodies hold.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The bytes of a padded standard base64 string, or `undefined` when it is not exactly that (the
 * same answer on every runtime: the alphabet is checked here, then the platform decodes). Only
 * the canonical spelling: a last character with its unused low bits set (`aGl=` for `aGk=`)
 * decodes to the same bytes in lenient decoders, and is refused, so a signature has one spelling.
 *
 * @example
 * ```ts
 * decodeBase64('aGk=');  // Uint8Array [104, 105]
 * decodeBase64('aGk');   // undefined (unpadded)
 * decodeBase64('aGl=');  // undefined (unused bits set)
 * ```
 */
export function decodeBase64(text: string): Uint8Array | undefined {
  if (!BASE64.test(text)) return undefined;
  const url = text.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return isCanonicalBase64url(url) ? base64UrlDecode(url) : undefined;
}
