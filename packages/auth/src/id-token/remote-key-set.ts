import type { Clock } from '../clock.js';
import { jwksFetchChannel, jwksKeySkippedChannel } from '../diagnostics/channels.js';
import { UnauthenticatedError, UnavailableError } from '../errors/index.js';
import type { JwksKeySkipReason } from '../diagnostics/diagnostics-messages.js';
import type { PublicKey } from '../platform/runtime-crypto.js';
import { RemoteKeyList } from '../remote-keys/remote-key-list.js';
import { cacheControlMaxAgeMs } from './cache-control-max-age.js';
import { importJwks, type ImportedKey } from './import-jwks.js';
import type { JwsAlgorithm } from './jws-algorithms.js';
import type { KeySource } from './key-source.js';

/** Options of a `RemoteKeySet`; see `IdTokenVerifierOptions` for their meaning and defaults. */
export interface RemoteKeySetOptions {
  readonly url: URL;
  readonly fetch: typeof fetch;
  readonly clock: Clock;
  readonly fetchTimeoutMs: number;
  readonly defaultMaxAgeMs: number;
  readonly staleWhileErrorMs: number;
  readonly unknownKidCooldownMs: number;
  /** The algorithms tokens may use: each key is imported for those of its type and curve. */
  readonly algorithms: readonly JwsAlgorithm[];
}

/** The key `imported` holds for `alg`; a key of another type or curve is a bad token. */
function keyFor(imported: ImportedKey, alg: JwsAlgorithm): PublicKey {
  const key = imported.byAlgorithm[alg];
  if (key === undefined) throw new UnauthenticatedError('invalid_token', 'the key is not for this alg');
  return key;
}

/** A key set is kept at least this long, whatever `Cache-Control` says (`no-cache`, `max-age=0`). */
const MIN_MAX_AGE_MS = 5_000;
/** ...and at most this long. */
const MAX_MAX_AGE_MS = 24 * 3_600_000;

/**
 * How long an identity provider's document (key set, discovery document) stays fresh: its
 * `Cache-Control: max-age` (less `Age`), else `defaultMaxAgeMs`, kept between 5 s and 24 h.
 */
export function providerDocumentFreshForMs(response: Response, defaultMaxAgeMs: number): number {
  const maxAge = cacheControlMaxAgeMs(response.headers.get('cache-control'), response.headers.get('age')) ?? defaultMaxAgeMs;
  return Math.min(MAX_MAX_AGE_MS, Math.max(MIN_MAX_AGE_MS, maxAge));
}

/**
 * The identity provider's JSON Web Key Set, fetched over HTTP and imported once (into `KeyObject`s on
 * Node, `CryptoKey`s elsewhere): a {@link RemoteKeyList} of keys by `kid`, each for its algorithms.
 *
 * - Fresh for the response's `Cache-Control: max-age` (else `defaultMaxAgeMs`), kept between
 *   5 s and 24 h.
 * - One fetch in flight at a time; an unknown `kid` triggers a refetch at most once per
 *   `unknownKidCooldownMs`; a `kid` still unknown after that, with a good key set, is a bad
 *   token (401).
 * - A failed refresh keeps the last good keys serving for at most `staleWhileErrorMs` past their
 *   expiry; with no usable keys, callers get `UnavailableError('identity_provider')`, never a 401.
 * - Each fetch is reported on `drops-auth:jwks-fetch`.
 */
export class RemoteKeySet implements KeySource {
  readonly #list: RemoteKeyList<ImportedKey>;

  constructor(options: RemoteKeySetOptions) {
    const { defaultMaxAgeMs, algorithms } = options;
    const url = options.url.href;
    const onSkipped = (kid: string, reason: JwksKeySkipReason): void => {
      if (jwksKeySkippedChannel.hasSubscribers) jwksKeySkippedChannel.publish({ url, kid, reason });
    };
    this.#list = new RemoteKeyList<ImportedKey>({
      url: options.url,
      fetch: options.fetch,
      clock: options.clock,
      fetchTimeoutMs: options.fetchTimeoutMs,
      staleWhileErrorMs: options.staleWhileErrorMs,
      unknownIdCooldownMs: options.unknownKidCooldownMs,
      freshForMs: (response) => providerDocumentFreshForMs(response, defaultMaxAgeMs),
      importKeys: (document, previous) => importJwks(document, previous, { algorithms, onSkipped }),
      unavailable: (cause) => new UnavailableError('identity_provider', { cause }),
      unknownId: () => new UnauthenticatedError('invalid_token', 'kid is not in the key set'),
      channel: jwksFetchChannel,
    });
  }

  /** The key for `kid` and `alg` if the key set is fresh and holds it; otherwise `undefined` (use `getKey`). */
  peek(kid: string, alg: JwsAlgorithm): PublicKey | undefined {
    return this.#list.peek(kid)?.byAlgorithm[alg];
  }

  /**
   * The key for `kid`, imported for `alg`: synchronously when the key set is fresh and holds it,
   * else after a refresh. Rejects with `UnauthenticatedError('invalid_token')` for a `kid` the
   * provider does not publish or a key of another type or curve than `alg` (an ES256 header naming
   * an RSA key), and `UnavailableError('identity_provider')` when no usable key set can be had.
   */
  getKey(kid: string, alg: JwsAlgorithm): PublicKey | Promise<PublicKey> {
    const found = this.#list.getKey(kid);
    return found instanceof Promise ? found.then((imported) => keyFor(imported, alg)) : keyFor(found, alg);
  }

  /**
   * Fetches the key set now (joining a fetch already in flight). Rejects with
   * `UnavailableError('identity_provider')` if it fails.
   */
  refresh(): Promise<void> {
    return this.#list.refresh();
  }
}
