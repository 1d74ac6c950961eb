export { DropsAuthModule } from './drops-auth.module.js';
export type { DropsAuthModuleOptions } from './drops-auth-options.js';
export { DropsAuthGuard, DropsIdTokenGuard } from './drops-auth.guard.js';
export { DropsAuthErrorFilter } from './drops-auth-error.filter.js';
export { Principal } from './principal.decorator.js';
