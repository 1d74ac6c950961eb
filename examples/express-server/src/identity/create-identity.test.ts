import { describe, expect, it } from 'vitest';
import { createIdentity } from './create-identity.js';

describe('createIdentity', () => {
  it('builds the development identity provider when NODE_ENV allows it', () => {
    expect(createIdentity({ kind: 'dev' }, { nodeEnv: 'test' }).dev).not.toBeNull();
    expect(createIdentity({ kind: 'dev' }, { nodeEnv: undefined }).dev).not.toBeNull();
  });

  // A configuration built by hand, not by loadConfig, still cannot start it in production.
  it.each(['production', 'staging', 'production '])('refuses the development identity provider under NODE_ENV=%j', (nodeEnv) => {
    expect(() => createIdentity({ kind: 'dev' }, { nodeEnv })).toThrow(/needs an identity provider: set FIREBASE_PROJECT_ID/);
  });
});
