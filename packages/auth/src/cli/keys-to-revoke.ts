import { keyIdOf, keyPrefixOf } from '../api-key/key-id.js';
import { printable } from './printable.js';

interface KeyToRevoke {
  readonly prefix: string;
  readonly id: string;
  /** Where it was found (file names as given), in order, each once; empty for stdin. */
  readonly sources: string[];
}

/**
 * The distinct secrets a command will revoke, in the order first found, with what may be printed
 * about each: prefix, id and the files it was found in. The secrets themselves are only handed to
 * the request body.
 */
export class KeysToRevoke {
  readonly #keys = new Map<string, KeyToRevoke>();

  /** Adds `secret`, found in `source` (a file name) or on stdin (no source). */
  add(secret: string, source?: string): void {
    let key = this.#keys.get(secret);
    if (key === undefined) {
      key = { prefix: keyPrefixOf(secret), id: keyIdOf(secret), sources: [] };
      this.#keys.set(secret, key);
    }
    if (source !== undefined && !key.sources.includes(source)) key.sources.push(source);
  }

  get size(): number {
    return this.#keys.size;
  }

  /** The secrets, for the request body only. */
  secrets(): string[] {
    return [...this.#keys.keys()];
  }

  /** One line per key, never the secret: `hp_AbCdEfG  id 3f0c…  in a.env, b.yml`, or JSON; file names {@link printable}. */
  describe(json: boolean): string {
    let text = '';
    for (const { prefix, id, sources } of this.#keys.values()) {
      if (json) text += `${printable(JSON.stringify(sources.length > 0 ? { prefix, id, files: sources } : { prefix, id }))}\n`;
      else text += `${prefix}  id ${id}${sources.length > 0 ? `  in ${sources.map(printable).join(', ')}` : ''}\n`;
    }
    return text;
  }
}
