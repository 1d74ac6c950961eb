import type { PublicKey } from '../platform/runtime-crypto.js';
import { RecentMap } from '../recent-map.js';
import type { IdTokenClaims } from './id-token-claims.js';
import type { JwsAlgorithm } from './jws-algorithms.js';

/** What the repeat-token cache remembers of a verified token. */
export interface VerifiedToken {
  readonly claims: IdTokenClaims;
  readonly kid: string;
  readonly alg: JwsAlgorithm;
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
  readonly #entries: RecentMap<VerifiedToken>;

  constructor(maxSize: number) {
    this.#entries = new RecentMap(maxSize);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** A hit becomes the most recent: a token in use stays however many others pass through. */
  get(token: string): VerifiedToken | undefined {
    return this.#entries.getAndMarkRecent(token);
  }

  set(token: string, entry: VerifiedToken): void {
    this.#entries.set(token, entry);
  }

  delete(token: string): void {
    this.#entries.delete(token);
  }
}
