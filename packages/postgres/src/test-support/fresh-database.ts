import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The maintenance database tests connect to in order to create their own. Trust auth on loopback. */
export const ADMIN_URL = process.env.DROPS_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A database made for one test file, and how to reach and drop it. */
export interface FreshDatabase {
  readonly name: string;
  /** URL of the new database, on the same server as {@link ADMIN_URL}. */
  readonly url: string;
  /** A pool on the new database; each call makes a new one, ended by `drop()`. */
  pool(config?: pg.PoolConfig): pg.Pool;
  /** Ends the pools made here and drops the database. */
  drop(): Promise<void>;
}

/** Creates a uniquely named, empty database for a test file. */
export async function freshDatabase(label: string): Promise<FreshDatabase> {
  const name = `drops_test_${label}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const pools: pg.Pool[] = [];
  return {
    name,
    url: url.toString(),
    pool(config: pg.PoolConfig = {}): pg.Pool {
      const pool = new pg.Pool({ connectionString: url.toString(), ...config });
      pool.on('error', () => {});
      pools.push(pool);
      return pool;
    },
    async drop(): Promise<void> {
      await Promise.all(pools.map((p) => (p.ended ? undefined : p.end().catch(() => {}))));
      const c = new pg.Client({ connectionString: ADMIN_URL });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}
