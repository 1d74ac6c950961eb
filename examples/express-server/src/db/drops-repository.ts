import type { Queryable } from '@drops/auth-postgres';
import { randomSlug } from '../slug.js';

/** A drop as listed: everything but its content. */
export interface DropRecord {
  readonly slug: string;
  readonly owner: string | null;
  readonly contentType: string;
  readonly size: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly expiresAt: Date | null;
}

/** What `GET /d/:slug` serves. */
export interface DropContent {
  readonly content: Buffer;
  readonly contentType: string;
  readonly updatedAt: Date;
}

interface DropRow {
  slug: string;
  owner: string | null;
  content_type: string;
  size: number;
  created_at: Date;
  updated_at: Date;
  expires_at: Date | null;
}

const COLUMNS = 'slug, owner, content_type, size, created_at, updated_at, expires_at';

function toRecord(row: DropRow): DropRecord {
  return {
    slug: row.slug,
    owner: row.owner,
    contentType: row.content_type,
    size: Number(row.size),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    expiresAt: row.expires_at === null ? null : new Date(row.expires_at),
  };
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23505';
}

/** Drops in SQL: one dialect for PostgreSQL and PGlite. Times come from the caller's clock. */
export class DropsRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Creates a drop. With `slug`, resolves `null` when a live drop already has it (an expired one
   * is replaced); without, picks a random free slug.
   */
  async create(input: {
    slug: string | null;
    owner: string | null;
    content: Buffer;
    contentType: string;
    now: Date;
    expiresAt: Date | null;
  }): Promise<DropRecord | null> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const slug = input.slug ?? randomSlug();
      try {
        return await this.db.transaction(async (tx) => {
          // A name held by an expired drop the sweeper has not reached yet is free.
          await tx.query('delete from drops where slug = $1 and expires_at is not null and expires_at <= $2', [slug, input.now]);
          const { rows } = await tx.query<DropRow>(
            `insert into drops (slug, owner, content, content_type, size, created_at, updated_at, expires_at)
             values ($1, $2, $3, $4, $5, $6, $6, $7) returning ${COLUMNS}`,
            [slug, input.owner, input.content, input.contentType, input.content.length, input.now, input.expiresAt],
          );
          return toRecord(rows[0]!);
        });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        if (input.slug !== null) return null;
      }
    }
    throw new Error('could not find a free slug');
  }

  /**
   * Appends content to a drop `owner` owns. `'not_found'` when there is no such drop (or it is
   * someone else's), `'too_large'` when the result would exceed `maxSize`.
   */
  async append(input: {
    slug: string;
    owner: string;
    content: Buffer;
    now: Date;
    maxSize: number;
  }): Promise<DropRecord | 'not_found' | 'too_large'> {
    const { rows } = await this.db.query<DropRow>(
      `update drops set content = content || $3, size = size + $4, updated_at = $5
       where slug = $1 and owner = $2 and size + $4 <= $6 returning ${COLUMNS}`,
      [input.slug, input.owner, input.content, input.content.length, input.now, input.maxSize],
    );
    if (rows[0] !== undefined) return toRecord(rows[0]);
    const exists = await this.db.query('select 1 from drops where slug = $1 and owner = $2', [input.slug, input.owner]);
    return exists.rows.length > 0 ? 'too_large' : 'not_found';
  }

  /** The owner's drops, newest first. Anonymous drops have no owner and are never listed. */
  async listByOwner(owner: string): Promise<DropRecord[]> {
    const { rows } = await this.db.query<DropRow>(
      `select ${COLUMNS} from drops where owner = $1 order by created_at desc, slug limit 1000`,
      [owner],
    );
    return rows.map(toRecord);
  }

  /** Whether `owner` owns the drop `slug`. */
  async isOwnedBy(slug: string, owner: string): Promise<boolean> {
    const { rows } = await this.db.query('select 1 from drops where slug = $1 and owner = $2', [slug, owner]);
    return rows.length > 0;
  }

  /** A live drop's content, or `null` when it is unknown or expired. */
  async findLive(slug: string, now: Date): Promise<DropContent | null> {
    const { rows } = await this.db.query<{ content: Uint8Array; content_type: string; updated_at: Date }>(
      'select content, content_type, updated_at from drops where slug = $1 and (expires_at is null or expires_at > $2)',
      [slug, now],
    );
    const row = rows[0];
    if (row === undefined) return null;
    const content = Buffer.isBuffer(row.content)
      ? row.content
      : Buffer.from(row.content.buffer, row.content.byteOffset, row.content.byteLength);
    return { content, contentType: row.content_type, updatedAt: new Date(row.updated_at) };
  }

  /** Deletes drops whose expiry has passed; resolves how many went. */
  async deleteExpired(now: Date): Promise<number> {
    const { rows } = await this.db.query('delete from drops where expires_at is not null and expires_at <= $1 returning slug', [now]);
    return rows.length;
  }
}
