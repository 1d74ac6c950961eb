import type { RandomSource } from '../api-key/generate-api-key.js';
import * as z from 'zod/mini';
import type { Principal } from '../authenticator/principal.js';
import { NotFoundError } from '../errors/not-found-error.js';
import { UnauthenticatedError } from '../errors/unauthenticated-error.js';
import { UnavailableError } from '../errors/unavailable-error.js';
import { functionOption, lazySchema, parseOptions } from '../options/parse-options.js';
import { parseRequestBody } from '../options/parse-request-body.js';
import { generateWebhookSecret } from './webhook-secret.js';
import { parseWebhookUrl } from './webhook-url.js';
import { isWebhookStore, type WebhookEndpoint, type WebhookStore } from './webhook-store.js';

/** Options of {@link createWebhookSettings}: where endpoints are kept, and the URL rule. */
export interface WebhookOptions {
  /** Where each account's endpoint and secret are kept, e.g. `PostgresWebhookStore` of `@drops/auth-postgres`. */
  readonly store: WebhookStore;
  /**
   * Accept `http:` URLs of loopback hosts (`localhost`, 127.0.0.0/8, `[::1]`): for development
   * only (the reference server allows it exactly when its development identity provider runs).
   * Default `false`: `https:` only.
   */
  readonly allowLoopbackHttp?: boolean;
  /** Where a new secret's 32 bytes come from. Default: `crypto.randomBytes`. Inject only in tests. */
  readonly random?: RandomSource;
}

/**
 * An account's webhook as `GET /keys/webhook` shows it: its endpoint (URL and deliveries, never the
 * secret), or `{ url: null }` when none is set.
 */
export type WebhookJson = WebhookEndpoint | { readonly url: null };

/** The answer of `PUT /keys/webhook`: the only time the secret is shown. */
export interface WebhookSetJson {
  readonly url: string;
  readonly secret: string;
}

/** The webhook routes' operations, for one principal's account: what the `webhooks` option of `createKeyManager` takes. */
export interface WebhookSettings {
  /** The account's endpoint, `{ url, deliveries }`, or `{ url: null }` when none (ID token only). */
  get(principal: Principal): Promise<WebhookJson>;
  /**
   * Sets the endpoint from a request body `{ "url": "https://…" }` (ID token only: an API key is
   * the uniform 401) with a new secret, shown once in the answer. A bad body is a 400.
   */
  set(principal: Principal, body: unknown): Promise<WebhookSetJson>;
  /** Removes the endpoint and its pending deliveries (ID token only); nothing to remove is no error. */
  remove(principal: Principal): Promise<void>;
}

async function guard<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (cause) {
    throw new UnavailableError('key_store', { cause });
  }
}

function assertIdToken(principal: Principal): void {
  if (principal.credential !== 'id_token') throw new UnauthenticatedError('wrong_credential_type');
}

/** The body of `PUT /keys/webhook`: `{ "url" }` and nothing else; the url itself is {@link parseWebhookUrl}'s check. */
const webhookBodySchema = /* @__PURE__ */ lazySchema(() => z.strictObject({ url: z.optional(z.unknown()) }));

function urlOfBody(body: unknown): unknown {
  return parseRequestBody(webhookBodySchema(), body, { request: 'invalid webhook', expected: 'expected {"url": "https://…"}' }).url;
}

/** The endpoint with the contract's fields only: whatever else a store hands back (its secret) is never shown. */
function endpointJson({ url, deliveries: { pending, failed, lastFailure } }: WebhookEndpoint): WebhookEndpoint {
  const last = lastFailure === null ? null : { at: lastFailure.at, reason: lastFailure.reason };
  return { url, deliveries: { pending, failed, lastFailure: last } };
}

const notConfigured = (): Promise<never> => Promise.reject(new NotFoundError('webhooks are not configured'));

/** Webhook routes that answer 404: `createKeyManager` was given no `webhooks` option. @internal */
export const WEBHOOKS_NOT_CONFIGURED: WebhookSettings = { get: notConfigured, set: notConfigured, remove: notConfigured };

/** `true` for what {@link createWebhookSettings} returns (the `webhooks` option of `createKeyManager`). @internal */
export function isWebhookSettings(value: unknown): value is WebhookSettings {
  const settings = value as Partial<WebhookSettings> | null | undefined;
  return typeof settings?.get === 'function' && typeof settings.set === 'function' && typeof settings.remove === 'function';
}

const optionsSchema = /* @__PURE__ */ lazySchema(() =>
  z.strictObject({
    store: z.custom<WebhookStore>(isWebhookStore, { error: 'expected a WebhookStore' }),
    allowLoopbackHttp: z.optional(z.boolean()),
    random: z.optional(functionOption<RandomSource>()),
  }),
);

/**
 * The operations of `GET|PUT|DELETE /keys/webhook` over a {@link WebhookStore}, for the `webhooks`
 * option of `createKeyManager` (without it, those routes answer 404). Its own factory, so an app
 * without webhooks does not bundle the URL rules and secrets. Options are checked here: a bad one
 * is a `TypeError`. Defaults: `allowLoopbackHttp` `false`, `random` `crypto.randomBytes`.
 *
 * @example
 * ```ts
 * const keys = createKeyManager({ keyStore, webhooks: createWebhookSettings({ store: new PostgresWebhookStore({ db }) }) });
 * ```
 */
export function createWebhookSettings(options: WebhookOptions): WebhookSettings {
  const { store, allowLoopbackHttp = false, random } = parseOptions(optionsSchema(), options, 'createWebhookSettings');
  return {
    async get(principal) {
      assertIdToken(principal);
      const endpoint = await guard(() => store.endpointOf(principal.accountId));
      return endpoint === null ? { url: null } : endpointJson(endpoint);
    },
    async set(principal, body) {
      assertIdToken(principal);
      const url = await parseWebhookUrl(urlOfBody(body), allowLoopbackHttp);
      const secret = generateWebhookSecret(random);
      await guard(() => store.set(principal.accountId, url, secret));
      return { url, secret };
    },
    async remove(principal) {
      assertIdToken(principal);
      await guard(() => store.remove(principal.accountId));
    },
  };
}
