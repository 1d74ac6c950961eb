import { UnavailableError, type RateLimit, type RateLimitStore } from '@drops/auth';

/**
 * One action counted in `store`: the ms to wait (0 = allowed), or the 503 (`UnavailableError`,
 * dependency `rate_limit_store`) when the store cannot count it: never a success, never a 401.
 */
export async function takeOrUnavailable(store: RateLimitStore, scope: string, subject: string, limit: RateLimit): Promise<number> {
  try {
    return await store.take(scope, subject, limit);
  } catch (cause) {
    throw new UnavailableError('rate_limit_store', { cause });
  }
}
