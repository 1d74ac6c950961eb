import { base64UrlDecode } from '../platform/runtime-crypto.js';

// Standard base64 (RFC 4648 section 4) with its padding: what GitHub's signature header and PEM bodies hold.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The bytes of a padded standard base64 string, or `undefined` when it is not exactly that (the
 * same answer on every runtime: the alphabet is checked here, then the platform decodes).
 *
 * @example
 * ```ts
 * decodeBase64('aGk=');  // Uint8Array [104, 105]
 * decodeBase64('aGk');   // undefined (unpadded)
 * ```
 */
export function decodeBase64(text: string): Uint8Array | undefined {
  if (!BASE64.test(text)) return undefined;
  return base64UrlDecode(text.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_'));
}
