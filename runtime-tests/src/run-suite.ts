import type { ConformanceTestApi } from '@drops/auth/testing/conformance';

/** What a suite run came to: the tests that passed, and each failure with its message. */
export interface SuiteResult {
  readonly passed: number;
  readonly failed: readonly { readonly name: string; readonly message: string }[];
}

type Body = () => unknown;

interface Scope {
  readonly prefix: string;
  readonly beforeEach: Body[];
  readonly afterEach: Body[];
}

/**
 * Runs a suite written against `ConformanceTestApi` (the four functions the KeyStore conformance
 * suite takes) on any runtime, with no test runner: tests in order, one at a time, each between
 * its scopes' `beforeEach` and `afterEach` hooks.
 */
export async function runSuite(register: (api: ConformanceTestApi) => void): Promise<SuiteResult> {
  const tests: { name: string; scopes: Scope[]; body: Body }[] = [];
  const stack: Scope[] = [{ prefix: '', beforeEach: [], afterEach: [] }];
  const current = (): Scope => stack[stack.length - 1]!;
  register({
    describe(name, body) {
      stack.push({ prefix: `${current().prefix}${name} > `, beforeEach: [], afterEach: [] });
      try {
        body();
      } finally {
        stack.pop();
      }
    },
    it(name, body) {
      tests.push({ name: `${current().prefix}${name}`, scopes: [...stack], body });
    },
    beforeEach(body) {
      current().beforeEach.push(body);
    },
    afterEach(body) {
      current().afterEach.push(body);
    },
  });

  let passed = 0;
  const failed: { name: string; message: string }[] = [];
  for (const test of tests) {
    try {
      for (const scope of test.scopes) for (const hook of scope.beforeEach) await hook();
      try {
        await test.body();
      } finally {
        for (const scope of [...test.scopes].reverse()) for (const hook of scope.afterEach) await hook();
      }
      passed++;
    } catch (error) {
      failed.push({ name: test.name, message: error instanceof Error ? error.message : String(error) });
    }
  }
  return { passed, failed };
}
