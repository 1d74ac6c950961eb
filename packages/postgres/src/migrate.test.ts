import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromPgPool } from './from-pg-pool.js';
import { migrate, MIGRATIONS_TABLE } from './migrate.js';
import type { Migration } from './migration.js';
import type { Queryable } from './queryable.js';
import { freshDatabase, type FreshDatabase } from './test-support/fresh-database.js';

let database: FreshDatabase;
let db: Queryable;

beforeAll(async () => {
  database = await freshDatabase('migrate');
  db = fromPgPool(database.pool());
});

afterAll(async () => {
  await database?.drop();
});

// Not idempotent on purpose: a second run of any of them would fail or add a row.
const history: Migration[] = [
  { version: 1, name: 'runs table', sql: 'create table runs (version int not null); insert into runs values (1);' },
  { version: 2, name: 'second run', sql: 'insert into runs values (2)' },
];

describe('migrate on PostgreSQL', () => {
  it('applies each migration exactly once when several instances start at once', async () => {
    const instances = Array.from({ length: 8 }, () => fromPgPool(database.pool({ max: 2 })));
    const results = await Promise.all(instances.map((i) => migrate(i, { namespace: 'race', migrations: history })));
    expect(results.flatMap((r) => r.applied).sort()).toEqual([1, 2]);
    const { rows } = await db.query<{ version: number }>('select version from runs order by version');
    expect(rows).toEqual([{ version: 1 }, { version: 2 }]);
    const recorded = await db.query(`select version, name from ${MIGRATIONS_TABLE} where namespace = 'race' order by version`);
    expect(recorded.rows).toEqual([
      { version: 1, name: 'runs table' },
      { version: 2, name: 'second run' },
    ]);
  });

  it('is idempotent, and applies only what is new', async () => {
    expect(await migrate(db, { namespace: 'race', migrations: history })).toEqual({ applied: [] });
    const third: Migration = { version: 3, name: 'third run', sql: 'insert into runs values (3)' };
    // Order in the list does not matter: versions do.
    expect(await migrate(db, { namespace: 'race', migrations: [third, ...history] })).toEqual({ applied: [3] });
    const { rows } = await db.query('select count(*)::int as n from runs');
    expect(rows).toEqual([{ n: 3 }]);
  });

  it('keeps namespaces apart', async () => {
    const other: Migration[] = [{ version: 1, name: 'other table', sql: 'create table other_things (id int)' }];
    expect(await migrate(db, { namespace: 'other', migrations: other })).toEqual({ applied: [1] });
    expect(await migrate(db, { namespace: 'race', migrations: history })).toEqual({ applied: [] });
  });

  it('keeps nothing of a call whose migration fails', async () => {
    const failing: Migration[] = [
      { version: 1, name: 'good', sql: 'create table half_done (id int)' },
      { version: 2, name: 'bad', sql: 'select * from no_such_table' },
    ];
    await expect(migrate(db, { namespace: 'failing', migrations: failing })).rejects.toThrow(/no_such_table/);
    const { rows } = await db.query(
      `select to_regclass('half_done') as t, (select count(*)::int from ${MIGRATIONS_TABLE} where namespace = 'failing') as n`,
    );
    expect(rows).toEqual([{ t: null, n: 0 }]);
  });

  it('refuses an applied version under another name', async () => {
    const renamed: Migration[] = [{ ...history[0]!, name: 'renamed' }, history[1]!];
    await expect(migrate(db, { namespace: 'race', migrations: renamed })).rejects.toThrow(/applied as "runs table"/);
  });

  it('refuses bad options with a TypeError', async () => {
    const bad: unknown[] = [
      { namespace: 'Bad-Name', migrations: [] },
      { namespace: 'ok', migrations: 'x' },
      { namespace: 'ok', migrations: [{ version: 0, name: 'a', sql: 'select 1' }] },
      { namespace: 'ok', migrations: [{ version: 1.5, name: 'a', sql: 'select 1' }] },
      { namespace: 'ok', migrations: [{ version: 1, name: '', sql: 'select 1' }] },
      { namespace: 'ok', migrations: [{ version: 1, name: 'a', sql: ' ' }] },
      {
        namespace: 'ok',
        migrations: [
          { version: 1, name: 'a', sql: 'select 1' },
          { version: 1, name: 'b', sql: 'select 1' },
        ],
      },
    ];
    for (const options of bad) await expect(migrate(db, options as never)).rejects.toThrow(TypeError);
  });
});
