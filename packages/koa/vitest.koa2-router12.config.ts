import { koaProject } from './vitest.majors.js';

export default koaProject(2, 12);
