import type { HeadersLike } from '../authenticator/parse-authorization.js';
import { InvalidSignatureError } from '../errors/invalid-signature-error.js';
import { UnavailableError } from '../errors/unavailable-error.js';
import { verifyEcdsaP256Sha256 } from '../platform/runtime-crypto.js';
import { RemoteKeyList } from '../remote-keys/remote-key-list.js';
import { parseGitHubSecretScanningOptions, type GitHubSecretScanningOptions } from './github-secret-scanning-options.js';
import { importGitHubPublicKeys, type ImportedSigningKey } from './import-github-public-keys.js';
import { parseSecretScanningMatches, type GitHubSecretScanningMatch } from './parse-secret-scanning-matches.js';
import { readSignatureHeaders } from './signature-headers.js';

/** While refetching the key list fails, the last good list keeps serving this long past its `cacheMs`. */
const STALE_WHILE_ERROR_MS = 3_600_000;

/** Checks GitHub's secret scanning alerts: see {@link createGitHubSecretScanning}. */
export interface GitHubSecretScanning {
  /**
   * Verifies one alert, then parses it. `body` is the request body exactly as received (the
   * signature covers its bytes: read it raw, never re-serialized JSON), `headers` the request's.
   *
   * Resolves the matches, `[{token, type, url, source}]`. Rejects with `InvalidSignatureError`
   * (401) for a missing, malformed, unknown-key or wrong signature, `UnavailableError` (503) when
   * GitHub's key list cannot be had or for a key it does not hold while a refetch is not allowed
   * yet (`Retry-After`: the cooldown left), `InvalidRequestError` (400) for a verified body that is not
   * such a list. Nothing about the body is in any error.
   */
  verify(body: Uint8Array, headers: HeadersLike): Promise<GitHubSecretScanningMatch[]>;
  /** Fetches the key list now, e.g. at start-up. Rejects with `UnavailableError` if it cannot. */
  warmUp(): Promise<void>;
}

/**
 * Creates the verifier of GitHub's secret scanning partner alerts: the `Github-Public-Key-Identifier`
 * and `Github-Public-Key-Signature` headers (ECDSA P-256 with SHA-256, DER, base64) over the raw
 * body, against GitHub's published key list. Runs on Node (`node:crypto`) and on Web Crypto alone
 * (workerd, Deno, Bun, browsers).
 *
 * The key list is fetched on first use and cached (`cacheMs`); one fetch in flight at a time; an
 * identifier it does not hold triggers a refetch at most once per `unknownKeyCooldownMs`, and is a
 * 401 once refetched and still missing, but a 503 with `Retry-After` (the cooldown left) inside the
 * cooldown, since GitHub retries a 503 and may have published the key since. It is
 * fetched over `https:` only (`http:` on loopback, for tests), redirects are not followed, and a
 * fetch that fails, times out or brings back anything but a list with a P-256 key is a 503, never
 * a 401. Options are checked here, once.
 *
 * @example
 * ```ts
 * import { createGitHubSecretScanning } from '@drops/auth';
 *
 * const secretScanning = createGitHubSecretScanning();
 * const matches = await secretScanning.verify(rawBody, request.headers);
 * // [{ token: 'hp_…', type: 'drops_api_key', url: 'https://github.com/…', source: 'content' }]
 * ```
 *
 * @example
 * ```ts
 * // In tests: a key list served on loopback by LocalSecretScanningKeys (@drops/auth/testing).
 * const secretScanning = createGitHubSecretScanning({ keysUrl: github.keysUrl });
 * ```
 */
export function createGitHubSecretScanning(options: GitHubSecretScanningOptions = {}): GitHubSecretScanning {
  const o = parseGitHubSecretScanningOptions(options);
  const keyList = new RemoteKeyList<ImportedSigningKey>({
    url: o.keysUrl,
    fetch: o.fetch,
    clock: o.clock,
    fetchTimeoutMs: o.fetchTimeoutMs,
    freshForMs: () => o.cacheMs,
    staleWhileErrorMs: STALE_WHILE_ERROR_MS,
    unknownIdCooldownMs: o.unknownKeyCooldownMs,
    importKeys: importGitHubPublicKeys,
    unavailable: (cause) => new UnavailableError('secret_scanning_keys', { cause }),
    unknownId: () => new InvalidSignatureError('the request is signed with a key GitHub does not publish'),
    // GitHub retries a 503 and not a 401: a key it published after our last refetch must not be
    // refused for good because unknown identifiers (junk alerts) used the refetch up.
    unknownIdInCooldown: (retryAfterMs) =>
      new UnavailableError('secret_scanning_keys', { retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) }),
  });

  return {
    async verify(body, headers) {
      if (!(body instanceof Uint8Array)) throw new TypeError('GitHubSecretScanning.verify: body must be the raw bytes (a Uint8Array)');
      const { keyIdentifier, signature } = readSignatureHeaders(headers);
      const { key } = await keyList.getKey(keyIdentifier);
      if (!(await verifyEcdsaP256Sha256(key, body, signature))) {
        throw new InvalidSignatureError('the signature does not match the request body');
      }
      return parseSecretScanningMatches(body);
    },
    warmUp: () => keyList.refresh(),
  };
}
