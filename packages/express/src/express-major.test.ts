import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import express from 'express';
import { describe, expect, it } from 'vitest';

// Each vitest project runs this package's suite on one Express release (vitest.majors.ts: 5,
// the latest 4 and 4.17, aliased). Guard that the alias really took effect.
describe('the Express major under test', () => {
  it(`is Express ${process.env['EXPRESS_MAJOR']}`, async () => {
    const require = createRequire(import.meta.url);
    const name = process.env['EXPRESS_PACKAGE'] ?? 'express';
    const manifest = JSON.parse(await readFile(require.resolve(`${name}/package.json`), 'utf8')) as { version: string };
    expect(manifest.version.split('.')[0]).toBe(process.env['EXPRESS_MAJOR']);
    // The module the tests and the adapter import is that one.
    expect(express).toBe(require(name));
  });
});
