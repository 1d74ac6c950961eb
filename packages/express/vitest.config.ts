import { expressProject } from './vitest.majors.js';

export default expressProject('express');
