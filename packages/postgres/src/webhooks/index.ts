export { PostgresWebhookStore } from './postgres-webhook-store.js';
export {
  DEFAULT_WEBHOOK_RETRY_SECONDS,
  startWebhookSender,
  type WebhookDeliveryReport,
  type WebhookSender,
  type WebhookSenderOptions,
} from './webhook-sender.js';
export { postWebhook, type WebhookPostOptions, type WebhookPostResult } from './safe-webhook-post.js';
export { isDeliverableAddress } from './webhook-address.js';
export { type ExpiryNoticeOptions, writeExpiryNotices } from './expiry-notices.js';
