import { keyRecordView, type KeyFieldsOf, type KeyRecord, type NewKeyRecord, type StoredKey } from '../key-store/key-record.js';

/** A field's value as JSON: a date as an RFC 3339 string (UTC), anything else as it is. */
type JsonValueOf<V> = V extends Date ? string : V;

/** Fields of a key as they go over the wire: each date an RFC 3339 string (UTC). */
export type KeyFieldsJson<T> = { readonly [F in keyof T]: JsonValueOf<T[F]> };

/** A key as it goes over the wire in listings (`GET /keys`): a {@link KeyRecord}, dates as strings. Never the secret. */
export interface KeyJson extends KeyFieldsJson<KeyRecord> {}

/** The 201 body of a mint: the only time the secret (`apiKey`) is ever sent, and the key as its owner sees it. */
export interface MintedKeyJson extends KeyFieldsJson<Pick<StoredKey, KeyFieldsOf<'minted'>>> {
  readonly apiKey: string;
}

/** The 201 body of a roll: the new key as a mint answers it, and the id of the key it replaces. */
export interface RolledKeyJson extends MintedKeyJson {
  readonly replaces: string;
}

/** Fields of a key as JSON, in their order. */
function jsonOf<T extends object>(fields: T): KeyFieldsJson<T> {
  const json: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(fields)) json[field] = value instanceof Date ? value.toISOString() : value;
  return json as KeyFieldsJson<T>;
}

/**
 * A key record as JSON for `GET /keys`.
 *
 * @example
 * ```ts
 * res.json({ keys: (await keys.list(principal)).map(toKeyJson) });
 * ```
 */
export function toKeyJson(key: KeyRecord): KeyJson {
  return jsonOf(keyRecordView(key, 'listed'));
}

/** The 201 body of a mint: the secret, then the key's `minted` view. @internal */
export function toMintedKeyJson(secret: string, key: NewKeyRecord): MintedKeyJson {
  return { apiKey: secret, ...jsonOf(keyRecordView(key, 'minted')) };
}
