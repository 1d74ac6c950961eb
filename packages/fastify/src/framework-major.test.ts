import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';

// Each vitest project runs this package's suite on one Fastify major (vitest.majors.ts). Guard
// that the alias really took effect.
const require = createRequire(import.meta.url);
const major = process.env['FASTIFY_MAJOR'] ?? '';

describe('the framework major under test', () => {
  it(`is Fastify ${major}`, async () => {
    const name = process.env['FASTIFY_PACKAGE'] ?? 'fastify';
    const manifest = JSON.parse(await readFile(`${dirname(require.resolve(name))}/package.json`, 'utf8')) as { version: string };
    expect(manifest.version.split('.')[0]).toBe(major);
    // The module the tests and the adapter import is that one.
    expect(Fastify).toBe(((await import(/* @vite-ignore */ name)) as { default: unknown }).default);
  });
});
