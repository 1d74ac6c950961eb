import type { KeyStore } from '../key-store/key-store.js';
import type { ConformanceTestApi, KeyStoreCapabilities, KeyStoreHarness } from './key-store-conformance.js';

/**
 * What each part of the KeyStore conformance suite (key events, pending revocations, expiry, roll)
 * registers its tests with: made once by `describeKeyStoreConformance`, so the parts share one
 * harness and one reading of the store's capabilities.
 * @internal
 */
export interface KeyStoreSuite {
  readonly describe: ConformanceTestApi['describe'];
  readonly it: ConformanceTestApi['it'];
  /** The running test's harness: a fresh, empty store (and what the capabilities add). */
  readonly harness: () => KeyStoreHarness;
  readonly capabilities: KeyStoreCapabilities;
  /** Registers a test only for a store that claims `shared`; it runs with the harness's `peer`. */
  readonly itShared: (name: string, body: (h: KeyStoreHarness & { readonly peer: KeyStore }) => Promise<void>) => void;
  /** Registers a test only for a store that claims `persistent`; it runs with the harness's `reopen`. */
  readonly itPersistent: (name: string, body: (h: KeyStoreHarness & { readonly reopen: () => Promise<KeyStore> }) => Promise<void>) => void;
}

/** The {@link KeyStoreSuite} of `test`'s runner, over the harness `harness` hands out, for `capabilities`. @internal */
export function keyStoreSuite(test: ConformanceTestApi, harness: () => KeyStoreHarness, capabilities: KeyStoreCapabilities): KeyStoreSuite {
  const { describe, it } = test;
  /** `it` for a test only a store claiming `claim` runs, with the harness's `field` (which the claim requires). */
  const itWhen =
    <K extends 'peer' | 'reopen'>(claim: keyof KeyStoreCapabilities, field: K, named: string) =>
    (name: string, body: (h: KeyStoreHarness & Required<Pick<KeyStoreHarness, K>>) => Promise<void>): void => {
      if (capabilities[claim] !== true) return;
      it(name, async () => {
        const h = harness();
        if (h[field] === undefined) throw new Error(`a store declared ${claim} must provide ${named} in its harness`);
        await body(h as KeyStoreHarness & Required<Pick<KeyStoreHarness, K>>);
      });
    };
  return {
    describe,
    it,
    harness,
    capabilities,
    itShared: itWhen('shared', 'peer', 'a peer'),
    itPersistent: itWhen('persistent', 'reopen', 'reopen'),
  };
}
