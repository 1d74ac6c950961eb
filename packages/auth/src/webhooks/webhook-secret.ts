import { base64UrlEncode, randomBytes } from '../platform/runtime-crypto.js';
import type { RandomSource } from '../api-key/generate-api-key.js';

/** What every webhook signing secret starts with (the Standard Webhooks convention). */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/**
 * A new signing secret: `whsec_` + standard base64 of 32 random bytes, the form the
 * `standardwebhooks` package's `new Webhook(secret)` reads.
 * @internal
 */
export function generateWebhookSecret(random: RandomSource = randomBytes): string {
  const bytes = random(32);
  if (bytes.length !== 32) throw new TypeError(`random source must return 32 bytes, got ${bytes.length}`);
  const base64 = base64UrlEncode(bytes).replaceAll('-', '+').replaceAll('_', '/');
  return `${WEBHOOK_SECRET_PREFIX}${base64}${'='.repeat((4 - (base64.length % 4)) % 4)}`;
}
