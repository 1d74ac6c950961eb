import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { LocalKeyServer, type OutageMode } from './local-key-server.js';

/** Options of `LocalSecretScanningKeys.start`. */
export interface LocalSecretScanningKeysOptions {
  /** Port on 127.0.0.1. Default 0 (a random free port). */
  readonly port?: number;
}

/** One ECDSA P-256 key pair, as GitHub holds the keys it signs secret scanning alerts with. */
export interface SecretScanningSigningKey {
  /** Its `key_identifier` in the list and `Github-Public-Key-Identifier` header: hex SHA-256 of the public key. */
  readonly keyIdentifier: string;
  readonly privateKey: KeyObject;
  /** The public key as the list publishes it: SPKI PEM. */
  readonly publicKeyPem: string;
}

/** One entry of the served key list, shaped like GitHub's. */
export interface SecretScanningPublicKeyEntry {
  readonly key_identifier: string;
  readonly key: string;
  readonly is_current: boolean;
}

/** Options of `sign` and `signedHeaders`. */
export interface SecretScanningSignOptions {
  /** Sign with this key (e.g. one from `newKey({ publish: false })`). Default the current key. */
  readonly key?: SecretScanningSigningKey;
  /** The identifier sent. Default the signing key's own. */
  readonly keyIdentifier?: string;
}

/** The two headers GitHub sends with a secret scanning alert (a type, so it passes as `HeadersInit`). */
export type SecretScanningHeaders = {
  readonly 'Github-Public-Key-Identifier': string;
  readonly 'Github-Public-Key-Signature': string;
};

/**
 * Generates a P-256 key pair with its identifier (hex SHA-256 of its DER public key).
 *
 * @example
 * ```ts
 * const stranger = newSecretScanningKey(); // signs, but is in nobody's list
 * ```
 */
export function newSecretScanningKey(): SecretScanningSigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return {
    keyIdentifier: createHash('sha256').update(der).digest('hex'),
    privateKey,
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }) as string,
  };
}

/**
 * GitHub's side of secret scanning, for tests: P-256 signing keys, their list served on
 * 127.0.0.1 in GitHub's shape (`{"public_keys": [{"key_identifier", "key", "is_current"}]}`),
 * and alerts signed as GitHub signs them (ECDSA P-256 SHA-256 over the raw body, DER, base64).
 * Keys can be rotated and removed, and the list endpoint can simulate outages.
 *
 * @example
 * ```ts
 * import { createGitHubSecretScanning } from '@drops/auth';
 * import { LocalSecretScanningKeys } from '@drops/auth/testing';
 *
 * const github = await LocalSecretScanningKeys.start();
 * const secretScanning = createGitHubSecretScanning({ keysUrl: github.keysUrl });
 * const body = JSON.stringify([{ token: apiKey, type: 'drops_api_key', url: 'https://github.com/o/r/blob/x/.env', source: 'content' }]);
 * await fetch(`${server}/secret-scanning/github`, { method: 'POST', headers: github.signedHeaders(body), body });
 * await github.close();
 * ```
 */
export class LocalSecretScanningKeys {
  /** Where the key list is served, `http://127.0.0.1:<port>/meta/public_keys/secret_scanning`. */
  readonly keysUrl: string;
  readonly #server: LocalKeyServer;
  #keys: SecretScanningSigningKey[];

  private constructor(server: LocalKeyServer, key: SecretScanningSigningKey) {
    this.#server = server;
    this.#keys = [key];
    this.keysUrl = server.url;
  }

  /**
   * Generates a key pair and starts serving the list on 127.0.0.1.
   *
   * @example
   * ```ts
   * const github = await LocalSecretScanningKeys.start();
   * ```
   */
  static async start(options: LocalSecretScanningKeysOptions = {}): Promise<LocalSecretScanningKeys> {
    const unknown = Object.keys(options ?? {}).filter((key) => key !== 'port');
    if (unknown.length > 0) throw new TypeError(`LocalSecretScanningKeys.start: options: unknown option "${unknown[0]}"`);
    let keys: LocalSecretScanningKeys | undefined;
    const server = await LocalKeyServer.start({
      port: options.port,
      path: '/meta/public_keys/secret_scanning',
      document: () => keys!.document,
    });
    keys = new LocalSecretScanningKeys(server, newSecretScanningKey());
    return keys;
  }

  /** The key alerts are signed with by default (the last one added). */
  get currentKey(): SecretScanningSigningKey {
    return this.#keys[this.#keys.length - 1]!;
  }

  /** The list as served. */
  get document(): { public_keys: SecretScanningPublicKeyEntry[] } {
    const current = this.currentKey;
    return {
      public_keys: this.#keys.map((k) => ({ key_identifier: k.keyIdentifier, key: k.publicKeyPem, is_current: k === current })),
    };
  }

  /** Requests the list endpoint has received (failed ones included). */
  get fetchCount(): number {
    return this.#server.fetchCount;
  }

  /**
   * A new key pair. Published (and current) by default; `publish: false` keeps it out of the
   * list, for a signature by a key nobody published.
   *
   * @example
   * ```ts
   * const rotated = github.newKey();                   // the list now holds it, current
   * const stranger = github.newKey({ publish: false }); // signs, but is not in the list
   * ```
   */
  newKey(options: { readonly publish?: boolean } = {}): SecretScanningSigningKey {
    const key = newSecretScanningKey();
    if (options.publish !== false) this.#keys = [...this.#keys, key];
    return key;
  }

  /** Removes a key from the list by identifier. */
  removeKey(keyIdentifier: string): void {
    this.#keys = this.#keys.filter((k) => k.keyIdentifier !== keyIdentifier);
  }

  /**
   * The base64 DER ECDSA P-256 SHA-256 signature of `body`'s bytes (a string is signed as UTF-8).
   *
   * @example
   * ```ts
   * github.sign('[]'); // 'MEUCIQ…'
   * ```
   */
  sign(body: string | Uint8Array, options: Pick<SecretScanningSignOptions, 'key'> = {}): string {
    const key = options.key ?? this.currentKey;
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    return sign('sha256', bytes, { key: key.privateKey, dsaEncoding: 'der' }).toString('base64');
  }

  /**
   * The headers GitHub sends with `body`: `Github-Public-Key-Identifier` and `Github-Public-Key-Signature`.
   *
   * @example
   * ```ts
   * await fetch(url, { method: 'POST', headers: github.signedHeaders(body), body });
   * await sendRawRequest(url, 'POST', '/secret-scanning/github', Object.entries(github.signedHeaders(body)), body);
   * ```
   */
  signedHeaders(body: string | Uint8Array, options: SecretScanningSignOptions = {}): SecretScanningHeaders {
    const key = options.key ?? this.currentKey;
    return {
      'Github-Public-Key-Identifier': options.keyIdentifier ?? key.keyIdentifier,
      'Github-Public-Key-Signature': this.sign(body, { key }),
    };
  }

  /**
   * Makes the list endpoint fail until called with `null`: `down` resets the connection, `hang`
   * never answers, `garbage` answers 200 with invalid JSON, `error500` answers 500.
   */
  simulateOutage(mode: OutageMode | null): void {
    this.#server.simulateOutage(mode);
  }

  /** Stops the server, cutting any hanging connection. */
  close(): Promise<void> {
    return this.#server.close();
  }
}
