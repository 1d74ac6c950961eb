import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import express from 'express';
import { describe, expect, it } from 'vitest';

// Each vitest project runs this package's suite on one Express major (vitest.config.ts: 5,
// vitest.express4.config.ts: 4, aliased). Guard that the alias really took effect.
describe('the Express major under test', () => {
  it(`is Express ${process.env['EXPRESS_MAJOR']}`, async () => {
    const require = createRequire(import.meta.url);
    const name = process.env['EXPRESS_MAJOR'] === '4' ? 'express4' : 'express';
    const manifest = JSON.parse(await readFile(require.resolve(`${name}/package.json`), 'utf8')) as { version: string };
    expect(manifest.version.split('.')[0]).toBe(process.env['EXPRESS_MAJOR']);
    // The module the tests and the adapter import is that one.
    expect(express).toBe(require(name));
  });
});
