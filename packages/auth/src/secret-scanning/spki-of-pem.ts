import { decodeBase64 } from './decode-base64.js';

const PUBLIC_KEY_PEM = /^\s*-----BEGIN PUBLIC KEY-----([A-Za-z0-9+/=\s]+)-----END PUBLIC KEY-----\s*$/;

/**
 * The DER SubjectPublicKeyInfo inside a `-----BEGIN PUBLIC KEY-----` PEM block (how GitHub
 * publishes its secret scanning keys), or `undefined` when the text is not one such block.
 *
 * @example
 * ```ts
 * spkiOfPem('-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQ…\n-----END PUBLIC KEY-----\n'); // Uint8Array(91)
 * ```
 */
export function spkiOfPem(pem: string): Uint8Array | undefined {
  const body = PUBLIC_KEY_PEM.exec(pem)?.[1];
  return body === undefined ? undefined : decodeBase64(body.replace(/\s+/g, ''));
}
