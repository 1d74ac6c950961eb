import { packageBuild } from '../../tsup.config.base.js';

export default packageBuild(
  {
    index: 'src/index.ts',
    'testing/index': 'src/testing/index.ts',
    'testing/conformance': 'src/testing/conformance.ts',
    cli: 'src/cli/main.ts',
  },
  { external: ['vitest'] },
);
