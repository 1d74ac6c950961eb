import type { JwksKeySkipReason } from '../diagnostics/diagnostics-messages.js';
import { importPublicJwk, type PublicKey } from '../platform/runtime-crypto.js';
import { algorithmsOfJwk, type JwsAlgorithm, type PublicJwkMembers } from './jws-algorithms.js';
import { untrustedRsaKeyReason, untrustedUsageReason } from './untrusted-key-reason.js';

/** One key of a key set, imported (a `KeyObject` on Node, a `CryptoKey` elsewhere) for each algorithm it may verify. */
export interface ImportedKey {
  /** The imported key by algorithm: a key verifies only the algorithms of its type and curve. */
  readonly byAlgorithm: Readonly<Partial<Record<JwsAlgorithm, PublicKey>>>;
  /** The JWK's public members and `alg`, so an unchanged key keeps its imported keys across refreshes. */
  readonly fingerprint: string;
}

/** Told of each key left out of a key set, and why (see `JwksKeySkipReason`). */
export type OnKeySkipped = (kid: string, reason: JwksKeySkipReason) => void;

/** Options of {@link importJwks}. */
export interface ImportJwksOptions {
  /** The algorithms tokens may use. Default `['RS256']`. */
  readonly algorithms?: readonly JwsAlgorithm[];
  /** Told of each key left out. */
  readonly onSkipped?: OnKeySkipped;
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The public members of a JWK, each checked to be base64url; `undefined` when one is missing or not. */
function publicMembersOf(jwk: Readonly<Record<string, unknown>>): PublicJwkMembers | undefined {
  const names = jwk.kty === 'RSA' ? ['n', 'e'] : jwk.kty === 'EC' ? ['x', 'y'] : ['x'];
  const members: Record<string, unknown> = { kty: jwk.kty };
  if (jwk.kty !== 'RSA') members.crv = jwk.crv;
  for (const name of names) {
    const value = jwk[name];
    if (typeof value !== 'string' || !BASE64URL.test(value)) return undefined;
    members[name] = value;
  }
  return members as unknown as PublicJwkMembers;
}

/** Imports `members` once per algorithm; rejects when the runtime refuses it (e.g. an EC point off its curve). */
async function importFor(members: PublicJwkMembers, algorithms: readonly JwsAlgorithm[]): Promise<ImportedKey['byAlgorithm']> {
  const byAlgorithm: Partial<Record<JwsAlgorithm, PublicKey>> = {};
  for (const alg of algorithms) byAlgorithm[alg] = await importPublicJwk(members, alg);
  return byAlgorithm;
}

/**
 * Imports the keys of a JWKS document usable for `algorithms` (default RS256 only): keys with a
 * `kid`, `use` `sig` (or none), `key_ops` holding `verify` (or none), of a type and curve that
 * match an allowed algorithm (and their `alg`, when given: kty, crv and alg must agree). RSA keys
 * need a modulus of at least 2048 bits without the ROCA fingerprint and the exponent 65537; every
 * key must import (an EC point off its curve does not). Other keys are skipped (each one told to
 * `onSkipped`) and never stop the good keys beside them from working; a document that is not a key
 * set, or holds no usable key, rejects (the caller treats that as the provider being unavailable,
 * never as a bad token). Asynchronous because Web Crypto imports keys asynchronously; it runs
 * once per key set fetch, never per token.
 *
 * `previous` lets an unchanged key keep its imported keys, which the repeat-token cache compares.
 */
export async function importJwks(
  document: unknown,
  previous?: ReadonlyMap<string, ImportedKey>,
  options: ImportJwksOptions = {},
): Promise<Map<string, ImportedKey>> {
  const { algorithms = ['RS256'], onSkipped = () => {} } = options;
  const list = (document as { keys?: unknown } | null)?.keys;
  if (typeof document !== 'object' || document === null || !Array.isArray(list)) {
    throw new Error('JWKS document has no "keys" array');
  }
  const keys = new Map<string, ImportedKey>();
  for (const jwk of list as unknown[]) {
    if (typeof jwk !== 'object' || jwk === null) continue;
    const fields = jwk as Record<string, unknown>;
    const kid = fields.kid;
    if (typeof kid !== 'string' || kid.length === 0) continue;
    if (keys.has(kid)) continue; // a duplicated kid: the first one wins, as in jose
    const reason = untrustedUsageReason(fields);
    if (reason !== undefined) {
      onSkipped(kid, reason);
      continue;
    }
    const usable = algorithmsOfJwk(fields, algorithms);
    if (usable.length === 0) {
      onSkipped(kid, 'unsupported');
      continue;
    }
    const members = publicMembersOf(fields);
    if (members === undefined) {
      onSkipped(kid, 'invalid_key');
      continue;
    }
    const fingerprint = JSON.stringify([members, usable]);
    const old = previous?.get(kid);
    if (old?.fingerprint === fingerprint) {
      keys.set(kid, old);
      continue;
    }
    const weakness = members.kty === 'RSA' ? untrustedRsaKeyReason(members.n!, members.e!) : undefined;
    if (weakness !== undefined) {
      onSkipped(kid, weakness);
      continue;
    }
    try {
      keys.set(kid, { byAlgorithm: await importFor(members, usable), fingerprint });
    } catch {
      onSkipped(kid, 'invalid_key'); // not a public key of its type (an EC point off its curve, say)
    }
  }
  if (keys.size === 0) throw new Error('JWKS holds no usable key');
  return keys;
}
