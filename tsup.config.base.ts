import { defineConfig, type Options } from 'tsup';

/**
 * The build every published package shares: ESM + CJS with types, source maps, Node 20.
 * A package's tsup.config.ts names its entry points and anything it adds.
 */
export function packageBuild(entry: Record<string, string>, extra: Options = {}): ReturnType<typeof defineConfig> {
  return defineConfig({
    entry,
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    sourcemap: true,
    target: 'node20',
    ...extra,
  });
}
