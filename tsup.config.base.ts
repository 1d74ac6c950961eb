import type { Options } from 'tsup';

/**
 * The build every published package shares: ESM + CJS with types, Node 20. Source maps carry no
 * sources (the `src/` they name does not ship; embedding it doubled the package). A package's
 * tsup.config.ts names its entry points and anything it adds.
 */
export function packageBuild(entry: Record<string, string>, extra: Options = {}): Options {
  return {
    entry,
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    sourcemap: true,
    esbuildOptions(options) {
      options.sourcesContent = false;
    },
    target: 'node20',
    ...extra,
  };
}
