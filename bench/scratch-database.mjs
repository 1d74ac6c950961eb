/**
 * A fresh PostgreSQL database for one benchmark, created through BENCH_POSTGRES_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres) and dropped, connections and all, when done.
 */
import pg from 'pg';

export const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Creates `drops_bench_<label>_<pid>`; resolves its connection string and a `drop()`. */
export async function createScratchDatabase(label) {
  const name = `drops_bench_${label}_${process.pid}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
