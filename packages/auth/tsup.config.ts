import { resolve } from 'node:path';
import { defineConfig, type Options } from 'tsup';
import { packageBuild } from '../../tsup.config.base.js';

/**
 * The web build, `dist/web/index.js`: the same core with `src/platform/runtime-crypto.ts`
 * (`node:crypto`, `Buffer`) swapped for its Web Crypto twin, for the `workerd`, `worker`,
 * `browser`, `deno` and `bun` export conditions. Node takes the main build and keeps its
 * synchronous `node:crypto` path.
 */
const webBuild: Options = {
  entry: { index: 'src/index.ts' },
  outDir: 'dist/web',
  format: ['esm'],
  platform: 'browser',
  target: 'es2022',
  dts: false,
  clean: true,
  sourcemap: true,
  esbuildOptions(options) {
    options.sourcesContent = false;
  },
  esbuildPlugins: [
    {
      name: 'web-crypto',
      setup(build) {
        build.onResolve({ filter: /\/platform\/runtime-crypto\.js$/ }, (args) => ({
          path: resolve(args.resolveDir, args.path.replace(/\.js$/, '.web.ts')),
        }));
      },
    },
  ],
};

export default [
  packageBuild(
    {
      index: 'src/index.ts',
      'testing/index': 'src/testing/index.ts',
      'testing/conformance': 'src/testing/conformance.ts',
      internal: 'src/internal.ts',
    },
    // `dist/web` and `dist/cli.js` are the other builds' (they run at the same time): spare them.
    { clean: ['!web/**', '!cli.js'] },
  ),
  defineConfig(webBuild),
  // The `drops-auth` command: run by Node as the bin, imported by nobody, so ESM only and no types.
  defineConfig({ entry: { cli: 'src/cli/main.ts' }, format: ['esm'], target: 'node20', clean: false, dts: false }),
];
