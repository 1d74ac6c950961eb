import { verify, type KeyObject } from 'node:crypto';

/**
 * Checks an RS256 (RSASSA-PKCS1-v1_5 with SHA-256) signature with `node:crypto`.
 *
 * `offload` picks the strategy. A lone verification runs synchronously: an RSA-2048 public-key
 * operation takes tens of microseconds, less than the round trip to a worker thread. When other
 * verifications are in flight, the callback form runs it on libuv's thread pool, so several
 * cores share the work while the event loop stays free.
 */
export function verifyRs256Signature(
  key: KeyObject,
  signingInput: Buffer,
  signature: Buffer,
  offload: boolean,
): boolean | Promise<boolean> {
  if (!offload) return verify('RSA-SHA256', signingInput, key, signature);
  return new Promise((resolve, reject) => {
    verify('RSA-SHA256', signingInput, key, signature, (error, valid) => {
      if (error) reject(error);
      else resolve(valid);
    });
  });
}
