import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL the tests use: a server on loopback with trust auth, database `postgres`. */
export const TEST_POSTGRES_URL = process.env['TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A fresh, uniquely named database for one test file, dropped afterwards. */
export interface TestDatabase {
  readonly name: string;
  readonly url: string;
  drop(): Promise<void>;
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `drops_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin((c) => c.query(`create database ${name}`));
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => admin(async (c) => void (await c.query(`drop database if exists ${name} with (force)`))),
  };
}

/** Runs one query on a test database (to look at what the server stored). */
export async function queryTestDatabase<Row>(url: string, sql: string, params: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as Row[];
  } finally {
    await client.end();
  }
}
