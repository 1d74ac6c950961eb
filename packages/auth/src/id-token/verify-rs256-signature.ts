import { verify, type KeyObject } from 'node:crypto';

/**
 * Checks an RS256 (RSASSA-PKCS1-v1_5 with SHA-256) signature with `node:crypto`.
 *
 * `offload` picks the strategy. A lone verification runs synchronously: an RSA-2048 public-key
 * operation takes tens of microseconds, less than the round trip to a worker thread. When other
 * verifications are in flight, the callback form runs it on libuv's thread pool, so several
 * cores share the work while the event loop stays free.
 *
 * Never throws: a signature the library cannot even process is simply not valid.
 */
export function verifyRs256Signature(
  key: KeyObject,
  signingInput: Buffer,
  signature: Buffer,
  offload: boolean,
): boolean | Promise<boolean> {
  if (!offload) {
    try {
      return verify('RSA-SHA256', signingInput, key, signature);
    } catch {
      return false;
    }
  }
  return new Promise((resolve) => {
    try {
      verify('RSA-SHA256', signingInput, key, signature, (error, valid) => resolve(!error && valid));
    } catch {
      resolve(false);
    }
  });
}
