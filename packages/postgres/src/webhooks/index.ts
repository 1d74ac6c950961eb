export { PostgresWebhookStore } from './postgres-webhook-store.js';
export {
  DEFAULT_WEBHOOK_RETRY_SECONDS,
  startWebhookSender,
  type WebhookDeliveryReport,
  type WebhookSender,
  type WebhookSenderOptions,
} from './webhook-sender.js';
export { NO_PUBLIC_ADDRESS, postWebhook, type WebhookPostOptions, type WebhookPostResult } from './safe-webhook-post.js';
// The rule PUT /keys/webhook checks literals with (in the core), and the sender every address with.
export { isDeliverableAddress } from '@drops/auth/internal';
export { type ExpiryNoticeOptions, writeExpiryNotices } from './expiry-notices.js';
