import { fastifyProject } from './vitest.majors.js';

export default fastifyProject('fastify');
