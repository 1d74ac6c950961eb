import { generateApiKey } from '../api-key/generate-api-key.js';
import type { NewKeyRecord } from '../key-store/key-store.js';

let counter = 0;

/**
 * A fresh key record for tests, with a real id and prefix from {@link generateApiKey}, and the
 * secret beside it so a test can authenticate with it.
 *
 * @example
 * ```ts
 * const key = sampleKeyRecord({ accountId: 'acct_1' });
 * await store.create(key);
 * await authenticator.authenticate(`Bearer ${key.secret}`);
 * ```
 */
export function sampleKeyRecord(overrides: Partial<NewKeyRecord> = {}): NewKeyRecord & { secret: string } {
  const key = generateApiKey();
  counter += 1;
  return {
    secret: key.secret,
    id: key.id,
    prefix: key.prefix,
    accountId: 'acct_conformance',
    name: `key-${counter}`,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, counter)),
    provenance: { subject: 'user_1', signInProvider: 'google.com', authTime: new Date(Date.UTC(2026, 0, 1)) },
    expiresAt: null,
    ...overrides,
  };
}
