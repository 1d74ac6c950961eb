/** A hook or test body: may return a promise. */
type TestBody = () => unknown;

/**
 * The four functions of the test runner the suites register their tests with: vitest (any
 * version), jest, mocha and `node:test` all provide them. Passed in, so `@drops/auth` depends on
 * no test runner.
 */
export interface ConformanceTestApi {
  readonly describe: (name: string, body: () => void) => unknown;
  readonly it: (name: string, body: TestBody) => unknown;
  readonly beforeEach: (body: TestBody) => unknown;
  readonly afterEach: (body: TestBody) => unknown;
}

/** What a store under test is made of; `S` is the parts the suite tests. */
export interface StoreHarness<S> {
  /** The store to test: empty (or holding nothing the tests' fresh key ids could meet). */
  readonly store: S;
  /** A second store over the same data (another process or instance), for a store that claims `shared`. */
  readonly peer?: S;
  /** Reopens the same data as a fresh store (e.g. after a restart), for a store that claims `persistent`. */
  readonly reopen?: () => Promise<S>;
  /**
   * A store like `store` whose backing store cannot be reached (stopped, unreachable port), for a
   * store that claims `remote`: its reads must reject, never answer `null`.
   */
  readonly unreachable?: () => Promise<S>;
  /** Flushes recorded uses so `lastUsedAt` can be read back. */
  readonly flushUses?: () => Promise<void>;
  /** Releases everything the harness made. */
  readonly cleanup?: () => Promise<void>;
}

/** What a store claims beyond the base contract; each claim adds the tests that prove it. */
export interface KeyStoreCapabilities {
  /** Several store instances share the data: the harness provides `peer`. */
  readonly shared?: boolean;
  /** Data outlives the store: the harness provides `reopen`. */
  readonly persistent?: boolean;
  /** The data is reached over a connection that can fail: the harness provides `unreachable`. */
  readonly remote?: boolean;
  /** The store implements `SessionCutoffs` (sign-out everywhere): its part of the whole-store suite runs. */
  readonly sessionCutoffs?: boolean;
}

type Claimed<S, K extends 'peer' | 'reopen' | 'unreachable'> = StoreHarness<S> & Required<Pick<StoreHarness<S>, K>>;

/**
 * What each part of the conformance suites registers its tests with: one harness per test, and
 * one reading of the store's capabilities, shared by every part a run holds.
 * @internal
 */
export interface ConformanceSuite<S> {
  readonly describe: ConformanceTestApi['describe'];
  readonly it: ConformanceTestApi['it'];
  /** The running test's harness. */
  readonly harness: () => StoreHarness<S>;
  readonly capabilities: KeyStoreCapabilities;
  /** Registers a test only for a store that claims `shared`; it runs with the harness's `peer`. */
  readonly itShared: (name: string, body: (h: Claimed<S, 'peer'>) => Promise<void>) => void;
  /** Registers a test only for a store that claims `persistent`; it runs with the harness's `reopen`. */
  readonly itPersistent: (name: string, body: (h: Claimed<S, 'reopen'>) => Promise<void>) => void;
  /** Registers a test only for a store that claims `remote`; it runs with the harness's `unreachable`. */
  readonly itRemote: (name: string, body: (h: Claimed<S, 'unreachable'>) => Promise<void>) => void;
}

/** One part of the suites: registers the tests of one contract (`KeyLookup`, `KeyWrites`, ...). @internal */
export type ConformancePart<S> = (suite: ConformanceSuite<S>) => void;

/**
 * Registers `parts` under one `describe`, each test with a fresh harness from `makeHarness`
 * (cleaned up after it). `where` names the public function, for the `TypeError` of a runner that
 * lacks one of the four functions.
 * @internal
 */
export function describeConformance<S>(
  where: string,
  title: string,
  test: ConformanceTestApi,
  makeHarness: () => Promise<StoreHarness<S>>,
  capabilities: KeyStoreCapabilities,
  parts: readonly ConformancePart<S>[],
): void {
  for (const fn of ['describe', 'it', 'beforeEach', 'afterEach'] as const) {
    if (typeof test?.[fn] !== 'function') throw new TypeError(`${where}: test.${fn}: expected your test runner's ${fn} function`);
  }
  const { describe, it, beforeEach, afterEach } = test;
  let h: StoreHarness<S>;
  /** `it` for a test only a store claiming `claim` runs, with the harness's `field` (which the claim requires). */
  const itWhen =
    <K extends 'peer' | 'reopen' | 'unreachable'>(claim: keyof KeyStoreCapabilities, field: K) =>
    (name: string, body: (h: Claimed<S, K>) => Promise<void>): void => {
      if (capabilities[claim] !== true) return;
      it(name, async () => {
        if (h[field] === undefined) throw new Error(`a store declared ${claim} must provide ${field} in its harness`);
        await body(h as Claimed<S, K>);
      });
    };
  const suite: ConformanceSuite<S> = {
    describe,
    it,
    harness: () => h,
    capabilities,
    itShared: itWhen('shared', 'peer'),
    itPersistent: itWhen('persistent', 'reopen'),
    itRemote: itWhen('remote', 'unreachable'),
  };
  describe(title, () => {
    beforeEach(async () => {
      h = await makeHarness();
    });
    afterEach(async () => {
      await h.cleanup?.();
    });
    for (const part of parts) part(suite);
  });
}
