import type { KeyRecord } from '../key-store/key-record.js';

/** A key as it goes over the wire in listings: dates as ISO 8601 strings. Never the secret. */
export interface KeyJson {
  readonly id: string;
  readonly prefix: string;
  readonly name: string | null;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
  /** When the key stops authenticating (RFC 3339, UTC); `null`: never. */
  readonly expiresAt: string | null;
}

/** The 201 body of a mint: the only time the secret (`apiKey`) is ever sent. */
export interface MintedKeyJson {
  readonly apiKey: string;
  readonly id: string;
  readonly prefix: string;
  readonly name: string | null;
  readonly createdAt: string;
  /** When the key stops authenticating (RFC 3339, UTC); `null`: never. */
  readonly expiresAt: string | null;
}

/** The 201 body of a roll: the new key as a mint answers it, and the id of the key it replaces. */
export interface RolledKeyJson extends MintedKeyJson {
  readonly replaces: string;
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
  return {
    id: key.id,
    prefix: key.prefix,
    name: key.name,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt === null ? null : key.lastUsedAt.toISOString(),
    expiresAt: key.expiresAt === null ? null : key.expiresAt.toISOString(),
  };
}
