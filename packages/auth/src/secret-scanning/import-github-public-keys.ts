import * as z from 'zod/mini';
import { lazySchema } from '../options/parse-options.js';
import { importEcdsaP256PublicKey, type PublicKey } from '../platform/runtime-crypto.js';
import { spkiOfPem } from './spki-of-pem.js';

/** One of GitHub's secret scanning keys, imported. */
export interface ImportedSigningKey {
  readonly key: PublicKey;
  /** The PEM as published, so an unchanged key keeps its imported key across refreshes. */
  readonly pem: string;
}

/** Longest `key_identifier` kept (GitHub's are 64 hex characters). */
export const MAX_KEY_IDENTIFIER_LENGTH = 256;

const documentSchema = /* @__PURE__ */ lazySchema(() => z.object({ public_keys: z.array(z.unknown()) }));
const entrySchema = /* @__PURE__ */ lazySchema(() =>
  z.object({
    key_identifier: z.string().check(z.minLength(1), z.maxLength(MAX_KEY_IDENTIFIER_LENGTH)),
    key: z.string(),
  }),
);

/**
 * Imports GitHub's secret scanning key list, `{"public_keys": [{"key_identifier", "key", "is_current"}]}`
 * (`key` a PEM SubjectPublicKeyInfo), into ECDSA P-256 keys by identifier. Every listed key counts,
 * current or not: GitHub signs with the key it names in `Github-Public-Key-Identifier`. Entries
 * that are not a P-256 key are skipped; a document that is not such a list, or holds no usable
 * key, rejects (the caller treats that as the list being unavailable, never as a bad signature).
 *
 * `previous` lets an unchanged key keep its imported key.
 */
export async function importGitHubPublicKeys(
  document: unknown,
  previous?: ReadonlyMap<string, ImportedSigningKey>,
): Promise<Map<string, ImportedSigningKey>> {
  const parsed = z.safeParse(documentSchema(), document);
  if (!parsed.success) throw new Error('secret scanning key list has no "public_keys" array');
  const keys = new Map<string, ImportedSigningKey>();
  for (const entry of parsed.data.public_keys) {
    const fields = z.safeParse(entrySchema(), entry);
    if (!fields.success) continue;
    const { key_identifier: id, key: pem } = fields.data;
    if (keys.has(id)) continue; // a duplicated identifier: the first one wins
    const old = previous?.get(id);
    if (old?.pem === pem) {
      keys.set(id, old);
      continue;
    }
    const spki = spkiOfPem(pem);
    if (spki === undefined) continue;
    try {
      keys.set(id, { key: await importEcdsaP256PublicKey(spki), pem });
    } catch {
      // not a P-256 public key: skip it, like any other unusable entry
    }
  }
  if (keys.size === 0) throw new Error('secret scanning key list holds no usable ECDSA P-256 key');
  return keys;
}
