import { KEYS_TABLE, REVISION_TABLE, SESSION_CUTOFFS_TABLE } from '../key-store-migrations.js';
import type { SqlExecutor } from '../queryable.js';
import { FINGERPRINT_WORDS, writeFingerprint } from './id-fingerprints.js';
import { KeyMembership } from './key-membership.js';

/** Ids read per round trip: ~3.3 MB of text, a few ms of the server's time each. */
export const MEMBERSHIP_PAGE_SIZE = 50_000;

const SQL = {
  begin: 'begin isolation level repeatable read, read only',
  // First statement of the transaction: its snapshot holds every change up to this revision and
  // none after it (every change to the set of active keys takes a revision, in commit order).
  revision: `select revision::text as revision from ${REVISION_TABLE}`,
  // Keyset pages over the partial unique index of active keys: never one giant result.
  page: `select id from ${KEYS_TABLE} where revoked_at is null and id > $1 order by id limit $2`,
  // Sign-out cut-offs (migration 13; absent before it, while a rolling upgrade migrates).
  cutoffsExist: `select to_regclass('${SESSION_CUTOFFS_TABLE}') is not null as present`,
  cutoffs: `select account_id, floor(extract(epoch from tokens_valid_after) * 1000)::bigint::text as ms from ${SESSION_CUTOFFS_TABLE}`,
} as const;

/** A membership read from one snapshot, and the revision that snapshot holds. @internal */
export interface BuiltMembership {
  readonly members: KeyMembership;
  /** Each account's sign-out cut-off, ms since the epoch. */
  readonly cutoffs: Map<string, number>;
  readonly revision: number;
}

/**
 * Reads every active key id in pages, and every sign-out cut-off, in one repeatable-read
 * transaction on `session`, and builds the {@link KeyMembership}. Announcements of revisions after `revision` are the caller's to apply.
 * @internal
 */
export async function buildMembership(session: SqlExecutor, timeoutMs: number, pageSize = MEMBERSHIP_PAGE_SIZE): Promise<BuiltMembership> {
  await session.exec(SQL.begin);
  try {
    const { rows } = await session.query<{ revision: string }>(SQL.revision, [], { timeoutMs });
    const revision = Number(rows[0]?.revision ?? 0);
    let fingerprints: Uint32Array<ArrayBuffer> = new Uint32Array(1024 * FINGERPRINT_WORDS);
    let size = 0;
    let after = '';
    for (;;) {
      const page = await session.query<{ id: string }>(SQL.page, [after, pageSize], { timeoutMs });
      const needed = size + page.rows.length * FINGERPRINT_WORDS;
      if (needed > fingerprints.length) fingerprints = grown(fingerprints, needed);
      for (const { id } of page.rows) if (writeFingerprint(id, fingerprints, size)) size += FINGERPRINT_WORDS;
      if (page.rows.length < pageSize) break;
      after = page.rows[page.rows.length - 1]!.id;
    }
    const cutoffs = await readCutoffs(session, timeoutMs);
    await session.exec('commit');
    return { members: new KeyMembership(fingerprints.slice(0, size)), cutoffs, revision };
  } catch (error) {
    await session.exec('rollback').catch(() => {});
    throw error;
  }
}

async function readCutoffs(session: SqlExecutor, timeoutMs: number): Promise<Map<string, number>> {
  const cutoffs = new Map<string, number>();
  const { rows: exist } = await session.query<{ present: boolean }>(SQL.cutoffsExist, [], { timeoutMs });
  if (exist[0]?.present !== true) return cutoffs;
  const { rows } = await session.query<{ account_id: string; ms: string }>(SQL.cutoffs, [], { timeoutMs });
  for (const { account_id, ms } of rows) cutoffs.set(account_id, Number(ms));
  return cutoffs;
}

function grown(array: Uint32Array, needed: number): Uint32Array<ArrayBuffer> {
  const next = new Uint32Array(Math.max(needed, array.length * 2));
  next.set(array);
  return next;
}
