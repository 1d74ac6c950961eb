import { koaProject } from './vitest.majors.js';

export default koaProject('koa2', 14);
