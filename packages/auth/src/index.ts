export * from './errors/index.js';
export * from './api-key/index.js';
export * from './key-store/index.js';
export * from './id-token/index.js';
export * from './authenticator/index.js';
export * from './keys/index.js';
export * from './web/index.js';
export { systemClock, type Clock } from './clock.js';
export * from './diagnostics/index.js';
