import { defineConfig } from 'tsup';

export default defineConfig([
  // The page: static files for `express.static`. Firebase is bundled (from npm, never a CDN) into
  // its own chunk that only Firebase mode imports, so the development-mode page stays small.
  {
    entry: { main: 'src/page/main.ts' },
    outDir: 'dist/public',
    publicDir: 'static',
    format: ['esm'],
    platform: 'browser',
    target: 'es2022',
    splitting: true,
    minify: true,
    sourcemap: false,
    dts: false,
    clean: true,
    noExternal: [/.*/],
    env: { NODE_ENV: 'production' },
  },
  // What a server imports: where the files are, and the page's configuration.
  {
    entry: ['src/index.ts'],
    outDir: 'dist',
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    dts: true,
    clean: false,
  },
]);
