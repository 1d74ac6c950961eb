import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { loadConfig } from './config.js';
import { SETTINGS_DOCS_PAGE, withSettingsTable } from './settings-docs.js';
import { SETTING_ENTRIES } from './settings.js';

const root = new URL('../../../', import.meta.url);
const src = new URL('./', import.meta.url);

/** The server's own source, tests and their helpers left out. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('the settings table', () => {
  it(`is ${SETTINGS_DOCS_PAGE}'s table (pnpm --filter @drops/example-express-server run docs:settings writes it)`, () => {
    const page = readFileSync(new URL(SETTINGS_DOCS_PAGE, root), 'utf8');
    expect(page).toBe(withSettingsTable(page));
  });

  it('names each variable at most 3 times in the server source: one row, the rest derived from it', () => {
    const source = sourceFiles(src.pathname).map((file) => readFileSync(file, 'utf8'));
    const overNamed = SETTING_ENTRIES.flatMap(([, { env }]) => {
      const name = new RegExp(`(?<![A-Za-z0-9_])${env}(?![A-Za-z0-9_])`, 'g');
      const count = source.reduce((sum, text) => sum + (text.match(name)?.length ?? 0), 0);
      return count > 3 ? [`${env}: ${count}`] : [];
    });
    expect(overNamed).toEqual([]);
  });

  it('has defaults that parse: an empty environment is a configuration, typed from the table', () => {
    const config = loadConfig({});
    expectTypeOf(config.port).toEqualTypeOf<number>();
    expectTypeOf(config.publicUrl).toEqualTypeOf<string | null>();
    expectTypeOf(config.trustProxy).toEqualTypeOf<false | number | string>();
    expectTypeOf(config.webhookRetrySeconds).toEqualTypeOf<number[]>();
    expect(config.headersTimeoutMs).toBe(10_000);
  });
});
