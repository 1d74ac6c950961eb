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
 * How many characters of a token's end place it in the map: of its signature, for any token that
 * verified. A `Map` keyed by the whole token would hash all of it on every lookup (V8 hashes a
 * string key in full, and each request's token is a fresh string): about 1.5 µs for a 1 KB token,
 * most of a repeated token's check.
 */
const PLACE_LENGTH = 32;

/** A cached token and what its verification established. */
interface Held {
  readonly token: string;
  readonly verified: VerifiedToken;
}

/**
 * A bounded least-recently-used map from a token string to what its verification established,
 * so a repeated token (a dashboard sends the same one for an hour) skips the signature check.
 * It only remembers; the caller re-checks the time claims and the key on every hit. A token is
 * found by its last {@link PLACE_LENGTH} characters and answered only when it equals the whole
 * token cached there: any part alone (the signature, say) would let a tampered payload ride on a
 * cached signature.
 */
export class VerifiedTokenCache {
  readonly #entries: RecentMap<Held>;

  constructor(maxSize: number) {
    this.#entries = new RecentMap(maxSize);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** A hit becomes the most recent: a token in use stays however many others pass through. */
  get(token: string): VerifiedToken | undefined {
    const held = this.#entries.getAndMarkRecent(placeOf(token));
    return held !== undefined && held.token === token ? held.verified : undefined;
  }

  set(token: string, entry: VerifiedToken): void {
    this.#entries.set(placeOf(token), { token, verified: entry });
  }

  delete(token: string): void {
    const place = placeOf(token);
    if (this.#entries.get(place)?.token === token) this.#entries.delete(place);
  }
}

function placeOf(token: string): string {
  return token.length > PLACE_LENGTH ? token.slice(-PLACE_LENGTH) : token;
}
