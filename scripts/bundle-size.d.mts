/** A bundle with a size budget: the named exports of `@drops/auth` and the most bytes they may take. */
export interface BundleBudget {
  readonly name: string;
  readonly imports: readonly string[];
  readonly limitBytes: number;
}
export declare const BUNDLE_BUDGETS: readonly BundleBudget[];
/** Bytes of `import { ...imports } from '@drops/auth'` bundled and minified by esbuild. */
export declare function bundleSize(imports: readonly string[]): Promise<number>;
