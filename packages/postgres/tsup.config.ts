import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.config.base.js';

export default [
  // `dist/cli.js` is the other build's (they run at the same time): spare it.
  packageBuild({ index: 'src/index.ts' }, { clean: ['!cli.js'] }),
  // The `drops-auth-postgres` command: run by Node as the bin, imported by nobody, so ESM only and no types.
  defineConfig({ entry: { cli: 'src/cli/main.ts' }, format: ['esm'], target: 'node20', clean: false, dts: false }),
];
