import { defineConfig } from 'tsup';

/**
 * The server as `pnpm start` runs it: `src/main.ts` and `src/migrate-main.ts` built once into
 * `dist/`, run by plain `node`. Run through `tsx` instead, every request cost about a fifth more
 * CPU (bench/METHOD.md). The dependencies stay imports, resolved from node_modules; source maps
 * point stack traces at `src/`.
 */
export default defineConfig({
  entry: { main: 'src/main.ts', 'migrate-main': 'src/migrate-main.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  dts: false,
  clean: true,
});
