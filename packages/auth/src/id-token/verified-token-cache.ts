import type { PublicKey } from '../platform/runtime-crypto.js';
import type { IdTokenClaims } from './id-token-claims.js';

/** What the repeat-token cache remembers of a verified token. */
export interface VerifiedToken {
  readonly claims: IdTokenClaims;
  readonly kid: string;
  /** The key that verified the signature: a hit is honoured only while the key set still maps `kid` to it. */
  readonly key: PublicKey;
}

/**
 * A bounded least-recently-used map from a token string to what its verification established,
 * so a repeated token (a dashboard sends the same one for an hour) skips the signature check.
 * It only remembers; the caller re-checks the time claims and the key on every hit. Keyed by
 * the whole token: any other part (the signature alone, say) would let a tampered payload ride
 * on a cached signature.
 */
export class VerifiedTokenCache {
  readonly #maxSize: number;
  readonly #entries = new Map<string, VerifiedToken>();

  constructor(maxSize: number) {
    this.#maxSize = maxSize;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(token: string): VerifiedToken | undefined {
    const entry = this.#entries.get(token);
    if (entry !== undefined) {
      // Move to the most recent end (Map keeps insertion order).
      this.#entries.delete(token);
      this.#entries.set(token, entry);
    }
    return entry;
  }

  set(token: string, entry: VerifiedToken): void {
    if (this.#maxSize === 0) return;
    this.#entries.delete(token);
    this.#entries.set(token, entry);
    if (this.#entries.size > this.#maxSize) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
  }

  delete(token: string): void {
    this.#entries.delete(token);
  }
}
