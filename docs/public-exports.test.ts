/**
 * The documented surface is the real one: for each entry point listed under "Public exports" in
 * docs/core-api.md, the names in its table are exactly what the built package exports.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const docsDir = dirname(fileURLToPath(import.meta.url));

/** `{ '@drops/auth': ['createAuthenticator', …], … }` from the tables of the "Public exports" section. */
function documentedExports(): Map<string, string[]> {
  const text = readFileSync(join(docsDir, 'core-api.md'), 'utf8');
  const section = text.slice(text.indexOf('\n## Public exports'));
  const entries = new Map<string, string[]>();
  let entry: string | undefined;
  for (const line of section.split('\n')) {
    const heading = /^### `([^`]+)`/.exec(line);
    if (heading) {
      entry = heading[1]!;
      entries.set(entry, []);
    }
    const row = /^\| `([^`]+)` \|/.exec(line);
    if (row && entry) entries.get(entry)!.push(row[1]!);
  }
  return entries;
}

const entries = documentedExports();

describe('public exports (docs/core-api.md)', () => {
  it('documents the five entry points', () => {
    expect([...entries.keys()]).toEqual([
      '@drops/auth',
      '@drops/auth/testing',
      '@drops/auth/testing/conformance',
      '@drops/auth/adapter',
      '@drops/auth/internal',
    ]);
  });

  for (const [entry, names] of entries) {
    it(`${entry} exports exactly the documented names`, async () => {
      const module = (await import(entry)) as Record<string, unknown>;
      expect(Object.keys(module).sort()).toEqual([...names].sort());
    });
  }
});
