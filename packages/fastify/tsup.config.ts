import { packageBuild } from '../../tsup.config.base.js';

export default packageBuild({ index: 'src/index.ts' });
