import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import Router from '@koa/router';
import Koa from 'koa';
import { describe, expect, it } from 'vitest';

// Each vitest project runs this package's suite on one Koa and one @koa/router major
// (vitest.majors.ts). Guard that the aliases really took effect.
const require = createRequire(import.meta.url);
const koaMajor = process.env['KOA_MAJOR'] ?? '';
const routerMajor = process.env['KOA_ROUTER_MAJOR'] ?? '';

async function majorOf(packageDir: string): Promise<string> {
  const manifest = JSON.parse(await readFile(`${packageDir}/package.json`, 'utf8')) as { version: string };
  return manifest.version.split('.')[0] ?? '';
}

describe('the framework majors under test', () => {
  it(`is Koa ${koaMajor} with @koa/router ${routerMajor}`, async () => {
    const koaName = process.env['KOA_PACKAGE'] ?? 'koa';
    const routerName = routerMajor === '15' ? '@koa/router' : `koa-router${routerMajor}`;
    const koaDir = require.resolve(koaName).replace(/\/lib\/.*$|\/dist\/.*$/, '');
    const routerDir = require.resolve(routerName).replace(/\/lib\/.*$|\/dist\/.*$/, '');
    expect(await majorOf(koaDir)).toBe(koaMajor);
    expect(await majorOf(routerDir)).toBe(routerMajor);
    // The modules the tests and the adapter import are those.
    expect(Koa).toBe(((await import(/* @vite-ignore */ koaName)) as { default: unknown }).default);
    expect(Router).toBe(((await import(/* @vite-ignore */ routerName)) as { default: unknown }).default);
  });
});
