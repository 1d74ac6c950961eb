import { koaProject } from './vitest.majors.js';

export default koaProject(3, 15);
