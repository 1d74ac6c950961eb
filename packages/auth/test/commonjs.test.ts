/**
 * The built package as CommonJS users meet it: `require` of every entry (no ESM-only dependency,
 * so it works on every Node `engines` names, with or without require(esm)), errors recognised
 * across the CJS and ESM copies loaded in one process. TypeScript resolving the subpaths in a
 * CommonJS app (`module: node16`, and the old `node10` resolution) is the packed consumer test's
 * `commonjs` scenario. Runs against dist/: `pnpm build` first (as `pnpm test` does).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const scratch = join(packageDir, '.tmp', 'commonjs');

/** A scratch CommonJS project that sees this package as `node_modules/@drops/auth`. */
function commonJsProject(name: string, files: Record<string, string>): string {
  const dir = join(scratch, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'node_modules', '@drops'), { recursive: true });
  symlinkSync(packageDir, join(dir, 'node_modules', '@drops', 'auth'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'commonjs' }));
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return dir;
}

const crossCopyScript = `
const cjs = require('@drops/auth');
const { LocalIdentityProvider } = require('@drops/auth/testing');
const { describeKeyStoreConformance } = require('@drops/auth/testing/conformance');
const adapter = require('@drops/auth/adapter');

(async () => {
  const esm = await import('@drops/auth');
  const idp = await LocalIdentityProvider.start();
  const claims = await cjs.createIdTokenVerifier(idp.verifierOptions).verify(idp.mintIdToken({ sub: 'user-1' }));
  await idp.close();
  let fromAdapter;
  try { adapter.parseJsonText('{oops'); } catch (error) { fromAdapter = error; }
  console.log(JSON.stringify({
    distinctCopies: cjs.DropsAuthError !== esm.DropsAuthError,
    cjsErrorIsEsm: new cjs.UnauthenticatedError('missing') instanceof esm.UnauthenticatedError,
    esmErrorIsCjs: new esm.UnavailableError('key_store') instanceof cjs.UnavailableError,
    esmErrorIsCjsBase: new esm.NotFoundError('x') instanceof cjs.DropsAuthError,
    adapterErrorIsMain: fromAdapter instanceof cjs.InvalidRequestError && fromAdapter instanceof esm.DropsAuthError,
    unbranded: Object.entries(cjs)
      .filter(([, v]) => typeof v === 'function' && v.prototype instanceof Error && !Object.hasOwn(v, Symbol.for('@drops/auth.error-brand')))
      .map(([k]) => k),
    newerErrors: new cjs.KeyLimitError(3) instanceof esm.KeyLimitError && new esm.RateLimitedError('slow down', 1) instanceof cjs.RateLimitedError,
    siblingIsNot: new cjs.NotFoundError('x') instanceof esm.UnauthenticatedError,
    plainErrorIsNot: new Error('x') instanceof esm.DropsAuthError,
    guard: esm.isDropsAuthError(new cjs.InvalidRequestError('x')) && cjs.isDropsAuthError(new esm.InvalidRequestError('x')),
    guardRefusesPlain: esm.isDropsAuthError(new Error('x')) || esm.isDropsAuthError({ status: 401 }),
    name: new cjs.UnauthenticatedError('missing').name,
    sub: claims.sub,
    conformance: typeof describeKeyStoreConformance,
  }));
})().catch((error) => { console.error(error); process.exit(1); });
`;

describe('CommonJS', () => {
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('requires every entry and recognises errors across the CJS and ESM copies, both ways', async () => {
    const dir = commonJsProject('cross-copy', { 'main.js': crossCopyScript });
    const { stdout } = await run(process.execPath, ['main.js'], { cwd: dir });
    expect(JSON.parse(stdout)).toEqual({
      distinctCopies: true,
      cjsErrorIsEsm: true,
      esmErrorIsCjs: true,
      esmErrorIsCjsBase: true,
      adapterErrorIsMain: true,
      unbranded: [],
      newerErrors: true,
      siblingIsNot: false,
      plainErrorIsNot: false,
      guard: true,
      guardRefusesPlain: false,
      name: 'UnauthenticatedError',
      sub: 'user-1',
      conformance: 'function',
    });
  });
});
