import { resolve } from 'node:path';
import { defineConfig, type Options } from 'tsup';
import { packageBuild } from '../../tsup.config.base.js';

/**
 * The web build, `dist/web/`: the same core with `src/platform/runtime-crypto.ts` (`node:crypto`,
 * `Buffer`) swapped for its Web Crypto twin, for the `workerd`, `worker`, `browser`, `deno` and
 * `bun` export conditions. Node takes the main build and keeps its synchronous `node:crypto` path.
 *
 * Every entry of the package is built here too, sharing chunks, so a runtime that takes the web
 * core gets the same core under `./testing`, `./testing/conformance`, `./adapter` and `./internal` (one copy in
 * the process, the Web Crypto key path in the conformance suite). The testing helpers keep their
 * `node:http`, `node:net`, `node:crypto` and `node:assert` imports, spelled with `node:` as Bun
 * and Deno (and workerd's `nodejs_compat`) know them; the core imports no built-in module.
 */
const webBuild: Options = {
  entry: {
    index: 'src/index.ts',
    'testing/index': 'src/testing/index.ts',
    'testing/conformance': 'src/testing/conformance.ts',
    adapter: 'src/adapter.ts',
    internal: 'src/internal.ts',
  },
  outDir: 'dist/web',
  format: ['esm'],
  platform: 'browser',
  target: 'es2022',
  external: [/^node:/],
  removeNodeProtocol: false,
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
      adapter: 'src/adapter.ts',
      internal: 'src/internal.ts',
    },
    // `dist/web` and `dist/cli.js` are the other builds' (they run at the same time): spare them.
    { clean: ['!web/**', '!cli.js'] },
  ),
  defineConfig(webBuild),
  // The `drops-auth` command: run by Node as the bin, imported by nobody, so ESM only and no types.
  // `ignore` (the scan's .gitignore rules) is bundled into it: the library itself never needs it.
  defineConfig({ entry: { cli: 'src/cli/main.ts' }, format: ['esm'], target: 'node20', clean: false, dts: false, noExternal: ['ignore'] }),
];
