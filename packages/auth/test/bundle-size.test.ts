/**
 * The core stays small in an application bundle: esbuild bundles and minifies imports from the
 * built dist (what a user's bundler sees) and the sizes stay within the budgets of issue 12.
 * `pnpm bench` reports the same figures (bench/size.bench.mjs).
 */
import { describe, expect, it } from 'vitest';
import { BUNDLE_BUDGETS, bundleSize } from '../../../scripts/bundle-size.mjs';

describe('bundle size', () => {
  for (const budget of BUNDLE_BUDGETS) {
    it(`${budget.name} (${budget.imports.join(', ')}) bundles to at most ${budget.limitBytes / 1024} KB`, async () => {
      expect(await bundleSize(budget.imports)).toBeLessThanOrEqual(budget.limitBytes);
    });
  }
});
