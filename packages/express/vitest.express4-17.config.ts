import { expressProject } from './vitest.majors.js';

export default expressProject('express4-17');
