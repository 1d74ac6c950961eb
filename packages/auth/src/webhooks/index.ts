export type { WebhookDeliveries, WebhookEndpoint, WebhookStore } from './webhook-store.js';
export { MemoryWebhookStore } from './memory-webhook-store.js';
export { MAX_WEBHOOK_URL_LENGTH } from './webhook-url.js';
export { WEBHOOK_SECRET_PREFIX } from './webhook-secret.js';
export {
  createWebhookSettings,
  type WebhookJson,
  type WebhookOptions,
  type WebhookSetJson,
  type WebhookSettings,
} from './webhook-settings.js';
