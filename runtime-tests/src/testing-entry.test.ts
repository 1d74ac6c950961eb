import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SuiteResult } from './run-suite.js';
import { startRuntime, type RunningRuntime } from './start-runtime.js';

interface TestingEntryReport {
  readonly resolved: Record<string, string>;
  readonly conformance: SuiteResult;
  readonly sampleIdIsKeyIdOfItsSecret: boolean;
  readonly verifiedSub: string;
}

// `@drops/auth/testing` on the runtimes that can run it (it listens with node:http), imported as
// a user there imports it: it must come from the same build as the core, or the process holds
// two copies of the core and the conformance suite mints keys with another implementation than
// the store under test uses. workerd without nodejs_compat has no node:http, so no testing entry.
describe.each(['bun', 'deno'] as const)('@drops/auth/testing on %s', (runtime) => {
  let server: RunningRuntime;
  let report: TestingEntryReport;

  beforeAll(async () => {
    server = await startRuntime(runtime, {
      entry: fileURLToPath(new URL('./entries/testing-entry.ts', import.meta.url)),
      env: {},
    });
    const answer = await fetch(server.url);
    expect(answer.status, server.output()).toBe(200);
    report = (await answer.json()) as TestingEntryReport;
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('resolves ./testing, ./testing/conformance and ./internal to the Web Crypto build, as the core', () => {
    const core = report.resolved['@drops/auth']!;
    expect(core).toMatch(/\/dist\/web\/index\.js$/);
    const buildOf = (url: string): string => url.slice(0, url.indexOf('/dist/web/') + '/dist/web/'.length);
    for (const [specifier, url] of Object.entries(report.resolved)) {
      expect(url, specifier).toContain('/dist/web/');
      expect(buildOf(url), specifier).toBe(buildOf(core));
    }
  });

  it('runs the KeyStore conformance suite on the core’s MemoryKeyStore, all passing', () => {
    expect(report.conformance.failed).toEqual([]);
    expect(report.conformance.passed).toBeGreaterThan(10);
  });

  it('mints sample keys whose id is the core’s keyIdOf, and its identity provider’s tokens verify', () => {
    expect(report.sampleIdIsKeyIdOfItsSecret).toBe(true);
    expect(report.verifiedSub).toBe('user_testing');
  });
});
