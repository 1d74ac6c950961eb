// Test helpers with no test-runner dependency: safe to import from a development server too.
// The KeyStore conformance suite needs vitest and lives at `@drops/auth/testing/conformance`.
export { sampleKeyRecord } from './sample-key-record.js';
export * from './local-identity-provider.js';
