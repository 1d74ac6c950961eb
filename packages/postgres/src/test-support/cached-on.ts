import type { ActiveKey } from '@drops/auth';
import type { PostgresKeyStore } from '../postgres-key-store.js';
import { eventually } from './eventually.js';

/** Waits until the store answers this key from memory (synchronously: no promise), under a lease. */
export async function cachedOn(s: PostgresKeyStore, id: string): Promise<ActiveKey> {
  return eventually(async () => {
    const answer = s.findActive(id);
    if (!(answer instanceof Promise)) return answer ?? undefined;
    await answer;
    return undefined;
  });
}
