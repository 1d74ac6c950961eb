/**
 * The docs' `/keys` routes are the route table's (`KEY_ROUTES` of `@drops/auth/adapter`):
 * reference-server.md's routes table lists each route once with its credential, and no table of
 * any page names a `/keys` route the table does not have.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KEY_ROUTES } from '@drops/auth/adapter';
import { describe, expect, it } from 'vitest';

const docsDir = dirname(fileURLToPath(import.meta.url));

/** `[method path, credential cell]` of each table row of `page` whose first cell names `/keys` routes. */
function keyRouteRows(page: string): [string, string][] {
  const rows: [string, string][] = [];
  for (const line of readFileSync(join(docsDir, page), 'utf8').split('\n')) {
    const row = /^\| `((?:[A-Z]+\|)*[A-Z]+) (\/keys[^`?\s]*)[^`]*`[^|]*\| ([^|]*) \|/.exec(line);
    if (row === null) continue;
    const path = row[2]!.replace('<id>', ':id');
    for (const method of row[1]!.split('|')) rows.push([`${method} ${path}`, row[3]!]);
  }
  return rows;
}

const routes = Object.values(KEY_ROUTES).map((r) => `${r.method} ${r.path}`);
const CREDENTIAL_CELL = { api_key_or_id_token: 'K, T', id_token: 'T only' } as const;

describe('the /keys routes in the docs', () => {
  it("reference-server.md's routes table lists every route once, with its credentials", () => {
    const rows = keyRouteRows('reference-server.md');
    expect(rows.map(([route]) => route).sort()).toEqual([...routes].sort());
    const expected = Object.values(KEY_ROUTES).map((r) => [`${r.method} ${r.path}`, CREDENTIAL_CELL[r.credentials]]);
    expect(rows.sort()).toEqual(expected.sort());
  });

  it('no table names a /keys route the route table does not have', () => {
    const pages = readdirSync(docsDir).filter((name) => name.endsWith('.md'));
    const unknown = pages.flatMap((page) =>
      keyRouteRows(page)
        .map(([route]) => route)
        .filter((route) => !routes.includes(route))
        .map((route) => `${page}: ${route}`),
    );
    expect(unknown).toEqual([]);
  });
});
