import { koaProject } from './vitest.majors.js';

export default koaProject('koa', 13);
