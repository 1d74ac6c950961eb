/** How a key was minted: the login behind it, for audit. Never a token. */
export interface KeyProvenance {
  /** The ID token's `sub`. */
  readonly subject: string;
  /** `firebase.sign_in_provider` of the ID token, e.g. `google.com`, when known. */
  readonly signInProvider: string | null;
  /** The ID token's `auth_time`, when present. */
  readonly authTime: Date | null;
}

/**
 * The key record: every field a store keeps of a key, the one place each is defined. What a store
 * is given and hands back are views of it ({@link NewKeyRecord}, {@link KeyRecord},
 * {@link ActiveKey}), each the fields {@link KEY_RECORD_VIEWS} names. Never holds the secret.
 */
export interface StoredKey {
  /** Lowercase hex SHA-256 of the secret. */
  readonly id: string;
  /** The account that owns the key. */
  readonly accountId: string;
  /** First 10 characters of the secret. */
  readonly prefix: string;
  /** The owner's label; `null`: none. */
  readonly name: string | null;
  /** When the key was minted. */
  readonly createdAt: Date;
  /** The login that minted the key, for audit; `null` when it is not known. */
  readonly provenance: KeyProvenance | null;
  /** The last use recorded (written later, batched, forward only); `null`: never used. */
  readonly lastUsedAt: Date | null;
  /**
   * When the key stops authenticating, by the store's clock (`KeyStore.now`); `null`: never. An
   * expired key is still active to the store (not revoked): the authenticator compares this in
   * memory with `now()` and refuses the key with the uniform 401.
   */
  readonly expiresAt: Date | null;
}

/**
 * The fields of each view of {@link StoredKey}: what a store is given to create a key (`new`),
 * lists to its owner (`listed`, and `GET /keys`), hands the authenticator on the hot path
 * (`active`), and what a mint's answer shows of the new key (`minted`). The view types, their JSON,
 * the memory store's copies and PostgreSQL's columns and row mappings all come from it.
 * @internal
 */
export const KEY_RECORD_VIEWS = {
  new: ['id', 'accountId', 'prefix', 'name', 'createdAt', 'provenance', 'expiresAt'],
  listed: ['id', 'prefix', 'name', 'createdAt', 'lastUsedAt', 'expiresAt'],
  active: ['id', 'accountId', 'expiresAt'],
  minted: ['id', 'prefix', 'name', 'createdAt', 'expiresAt'],
} as const satisfies Readonly<Record<string, readonly (keyof StoredKey)[]>>;

/** A view of the key record: a key of {@link KEY_RECORD_VIEWS}. @internal */
export type KeyRecordView = keyof typeof KEY_RECORD_VIEWS;

/** The fields of one view, e.g. `KeyFieldsOf<'active'>` is `'id' | 'accountId' | 'expiresAt'`. @internal */
export type KeyFieldsOf<V extends KeyRecordView> = (typeof KEY_RECORD_VIEWS)[V][number];

/** What a store is given to create a key. The secret is never part of it. */
export interface NewKeyRecord extends Pick<StoredKey, KeyFieldsOf<'new'>> {}

/** A key as listed to its owner. Never contains the secret. */
export interface KeyRecord extends Pick<StoredKey, KeyFieldsOf<'listed'>> {}

/** What the hot path needs of an active key. */
export interface ActiveKey extends Pick<StoredKey, KeyFieldsOf<'active'>> {}

/**
 * The fields of `view` from a key that holds them, as a new object with dates of its own (a caller
 * may change or keep what a store hands it).
 *
 * @example
 * ```ts
 * const active: ActiveKey = keyRecordView(newKey, 'active'); // { id, accountId, expiresAt }
 * ```
 * @internal
 */
export function keyRecordView<V extends KeyRecordView>(key: Pick<StoredKey, KeyFieldsOf<V>>, view: V): Pick<StoredKey, KeyFieldsOf<V>> {
  const fields: readonly KeyFieldsOf<V>[] = KEY_RECORD_VIEWS[view];
  const copy: Partial<Record<KeyFieldsOf<V>, unknown>> = {};
  for (const field of fields) {
    const value = key[field];
    copy[field] = value instanceof Date ? new Date(value) : value;
  }
  return copy as Pick<StoredKey, KeyFieldsOf<V>>;
}
