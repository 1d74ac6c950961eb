import type { KeyStore } from '../key-store/key-store.js';
import {
  describeConformance,
  type ConformancePart,
  type ConformanceTestApi,
  type KeyStoreCapabilities,
  type StoreHarness,
} from './conformance-suite.js';
import { keyEventLogTests } from './key-event-log-conformance.js';
import { keyLookupTests } from './key-lookup-conformance.js';
import { keyWritesTests } from './key-writes-conformance.js';
import { pendingRevocationQueueTests } from './pending-revocation-queue-conformance.js';
import { sessionCutoffsTests } from './session-cutoff-conformance.js';

/** What a whole store under test is made of. */
export type KeyStoreHarness = StoreHarness<KeyStore>;

/** Every part's tests, in the order a whole store runs them: one row per part of `KeyStore`. */
const KEY_STORE_TESTS: readonly ConformancePart<KeyStore>[] = [
  keyLookupTests,
  keyWritesTests,
  keyEventLogTests,
  pendingRevocationQueueTests,
  // Only for a store that claims `sessionCutoffs` (the part registers nothing otherwise).
  sessionCutoffsTests,
];

/**
 * The conformance suite every whole {@link KeyStore} runs: the tests of each of its parts, once,
 * each test with a fresh harness. Call it in a test file with your runner's `describe`, `it`,
 * `beforeEach` and `afterEach` and a factory that makes a fresh, empty store (and, where the store
 * can, a peer over the same data). Assertions use `node:assert`. A store of fewer parts runs those
 * parts' suites (`describeKeyLookupConformance`, ...).
 *
 * @example
 * ```ts
 * import { afterEach, beforeEach, describe, it } from 'vitest';
 * import { MemoryKeyStore } from '@drops/auth';
 * import { describeKeyStoreConformance } from '@drops/auth/testing/conformance';
 *
 * describeKeyStoreConformance({ describe, it, beforeEach, afterEach }, 'MemoryKeyStore', async () => ({
 *   store: new MemoryKeyStore({ minUseIntervalMs: 0 }),
 * }));
 * ```
 */
export function describeKeyStoreConformance(
  test: ConformanceTestApi,
  name: string,
  makeHarness: () => Promise<KeyStoreHarness>,
  capabilities: KeyStoreCapabilities = {},
): void {
  describeConformance('describeKeyStoreConformance', `KeyStore conformance: ${name}`, test, makeHarness, capabilities, KEY_STORE_TESTS);
}
