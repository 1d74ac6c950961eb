import { UnauthenticatedError, UnavailableError } from '../errors/index.js';
import type { PublicKey } from '../platform/runtime-crypto.js';
import { RemoteKeyList } from '../remote-keys/remote-key-list.js';
import type { JwsAlgorithm } from './jws-algorithms.js';
import type { KeySource } from './key-source.js';
import { readOpenIdConfiguration, type OpenIdConfiguration } from './openid-configuration.js';
import { providerDocumentFreshForMs, RemoteKeySet, type RemoteKeySetOptions } from './remote-key-set.js';

/** Options of a {@link DiscoveredKeySet}: a key set's, with the discovery document in place of its URL. */
export interface DiscoveredKeySetOptions extends Omit<RemoteKeySetOptions, 'url'> {
  /** `<issuer>/.well-known/openid-configuration`. */
  readonly discoveryUrl: URL;
  /** The issuer the document must name, exactly. */
  readonly issuer: string;
}

/** The one entry of the discovery "list". */
const PROVIDER = 'provider';

/**
 * An identity provider's key set found through OpenID Connect discovery: the discovery document
 * is a {@link RemoteKeyList} of its own (fresh for its `Cache-Control`, one fetch in flight, a
 * failed refresh served stale for `staleWhileErrorMs`, a 503 when neither can be had), and its
 * `jwks_uri` a {@link RemoteKeySet} with every rule of a configured key set. A token's `alg` must
 * also be one the document advertises (`id_token_signing_alg_values_supported`), when it says.
 */
export class DiscoveredKeySet implements KeySource {
  readonly #options: DiscoveredKeySetOptions;
  readonly #discovery: RemoteKeyList<OpenIdConfiguration>;
  /** The key set of the current `jwks_uri` (replaced if the document moves it). */
  #keySet: { readonly href: string; readonly keys: RemoteKeySet } | undefined;

  constructor(options: DiscoveredKeySetOptions) {
    this.#options = options;
    const { issuer, defaultMaxAgeMs } = options;
    this.#discovery = new RemoteKeyList<OpenIdConfiguration>({
      url: options.discoveryUrl,
      fetch: options.fetch,
      clock: options.clock,
      fetchTimeoutMs: options.fetchTimeoutMs,
      staleWhileErrorMs: options.staleWhileErrorMs,
      unknownIdCooldownMs: options.unknownKidCooldownMs,
      freshForMs: (response) => providerDocumentFreshForMs(response, defaultMaxAgeMs),
      importKeys: async (document) => new Map([[PROVIDER, readOpenIdConfiguration(document, issuer)]]),
      unavailable: (cause) => new UnavailableError('identity_provider', { cause }),
      unknownId: () => new UnavailableError('identity_provider'),
    });
  }

  peek(kid: string, alg: JwsAlgorithm): PublicKey | undefined {
    const provider = this.#discovery.peek(PROVIDER);
    return provider === undefined || !advertises(provider, alg) ? undefined : this.#keysOf(provider).peek(kid, alg);
  }

  getKey(kid: string, alg: JwsAlgorithm): PublicKey | Promise<PublicKey> {
    const provider = this.#discovery.getKey(PROVIDER);
    if (provider instanceof Promise) return provider.then((p) => this.#keyOf(p, kid, alg));
    return this.#keyOf(provider, kid, alg);
  }

  async refresh(): Promise<void> {
    await this.#discovery.refresh();
    const provider = this.#discovery.peek(PROVIDER);
    if (provider !== undefined) await this.#keysOf(provider).refresh();
  }

  #keyOf(provider: OpenIdConfiguration, kid: string, alg: JwsAlgorithm): PublicKey | Promise<PublicKey> {
    if (!advertises(provider, alg)) throw new UnauthenticatedError('invalid_token', 'alg is not advertised by the provider');
    return this.#keysOf(provider).getKey(kid, alg);
  }

  #keysOf(provider: OpenIdConfiguration): RemoteKeySet {
    const href = provider.jwksUrl.href;
    if (this.#keySet?.href !== href) {
      this.#keySet = { href, keys: new RemoteKeySet({ ...this.#options, url: provider.jwksUrl }) };
    }
    return this.#keySet.keys;
  }
}

function advertises(provider: OpenIdConfiguration, alg: JwsAlgorithm): boolean {
  return provider.algorithms === undefined || provider.algorithms.includes(alg);
}
