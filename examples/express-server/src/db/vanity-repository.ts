import type { Queryable } from '@drops/auth-postgres';

/** A vanity name as listed to its owner. */
export interface VanityRecord {
  readonly name: string;
  readonly slug: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

interface VanityRow {
  name: string;
  slug: string;
  created_at: Date;
  updated_at: Date;
}

const toRecord = (row: VanityRow): VanityRecord => ({
  name: row.name,
  slug: row.slug,
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

/** What {@link VanityRepository.claim} did. */
export type ClaimResult =
  | { readonly outcome: 'created' | 'updated'; readonly record: VanityRecord }
  | { readonly outcome: 'taken' }
  | { readonly outcome: 'no_drop' };

/** Vanity names: global, first come first served, each pointing at one of its owner's drops. */
export class VanityRepository {
  constructor(private readonly db: Queryable) {}

  async listByAccount(accountId: string): Promise<VanityRecord[]> {
    const { rows } = await this.db.query<VanityRow>(
      'select name, slug, created_at, updated_at from vanity_names where account_id = $1 order by name',
      [accountId],
    );
    return rows.map(toRecord);
  }

  async find(accountId: string, name: string): Promise<VanityRecord | null> {
    const { rows } = await this.db.query<VanityRow>(
      'select name, slug, created_at, updated_at from vanity_names where account_id = $1 and name = $2',
      [accountId, name],
    );
    return rows[0] === undefined ? null : toRecord(rows[0]);
  }

  /** Claims `name` for the account, pointing at `slug`, or re-points a name it already holds. */
  async claim(accountId: string, name: string, slug: string, now: Date): Promise<ClaimResult> {
    return this.db.transaction(async (tx) => {
      // Lock the drop row so it cannot change hands or go while the name is written.
      const drop = await tx.query('select 1 from drops where slug = $1 and owner = $2 for share', [slug, accountId]);
      if (drop.rows.length === 0) return { outcome: 'no_drop' };
      const { rows } = await tx.query<VanityRow & { inserted: boolean }>(
        `insert into vanity_names (name, account_id, slug, created_at, updated_at) values ($1, $2, $3, $4, $4)
         on conflict (name) do update set slug = excluded.slug, updated_at = excluded.updated_at
           where vanity_names.account_id = excluded.account_id
         returning name, slug, created_at, updated_at, (xmax = 0) as inserted`,
        [name, accountId, slug, now],
      );
      const row = rows[0];
      if (row === undefined) return { outcome: 'taken' };
      return { outcome: row.inserted ? 'created' : 'updated', record: toRecord(row) };
    });
  }

  /** Releases the account's name; `false` when it holds no such name. */
  async release(accountId: string, name: string): Promise<boolean> {
    const { rows } = await this.db.query('delete from vanity_names where account_id = $1 and name = $2 returning name', [accountId, name]);
    return rows.length > 0;
  }

  /** The slug a name points at, for serving. */
  async resolve(name: string): Promise<string | null> {
    const { rows } = await this.db.query<{ slug: string }>('select slug from vanity_names where name = $1', [name]);
    return rows[0]?.slug ?? null;
  }
}
