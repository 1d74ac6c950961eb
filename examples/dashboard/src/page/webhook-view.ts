import type { Api, WebhookEndpoint } from './api.js';
import { type Announcer, byId, focus, h } from './dom.js';
import { timeOf } from './format.js';
import { reportError } from './report-error.js';

/**
 * The account's webhook: where key events are posted. Saving shows the signing secret once
 * (focused, like a new key); "I have saved it" or signing out forgets it.
 */
export class WebhookView {
  readonly #announcer: Announcer;
  readonly #heading = byId('webhook-heading', HTMLHeadingElement);
  readonly #current = byId('webhook-current', HTMLParagraphElement);
  readonly #failures = byId('webhook-failures', HTMLParagraphElement);
  readonly #form = byId('webhook-form', HTMLFormElement);
  readonly #url = byId('webhook-url', HTMLInputElement);
  readonly #save = byId('webhook-save', HTMLButtonElement);
  readonly #remove = byId('webhook-remove', HTMLButtonElement);
  readonly #secretPanel = byId('webhook-secret-panel', HTMLFieldSetElement);
  readonly #secret = byId('webhook-secret', HTMLInputElement);
  readonly #done = byId('webhook-secret-done', HTMLButtonElement);
  #api: Api | null = null;

  constructor(announcer: Announcer) {
    this.#announcer = announcer;
    this.#form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.#set();
    });
    this.#remove.addEventListener('click', () => void this.#unset());
    this.#secret.addEventListener('focus', () => this.#secret.select());
    this.#done.addEventListener('click', () => {
      this.#hideSecret();
      focus(this.#heading);
    });
  }

  async start(api: Api): Promise<void> {
    this.#api = api;
    try {
      const webhook = await api.getWebhook();
      if (this.#api === api) this.#show(webhook?.url ?? null, webhook?.deliveries.failed ? webhook : null);
    } catch (error) {
      reportError(this.#announcer, error);
    }
  }

  stop(): void {
    this.#api = null;
    this.#hideSecret();
    this.#form.reset();
    this.#current.replaceChildren();
    this.#showFailures(null);
    this.#remove.hidden = true;
  }

  /** The endpoint's URL, and its failed deliveries when `failing` has some. */
  #show(url: string | null, failing: WebhookEndpoint | null = null): void {
    this.#current.replaceChildren(
      ...(url === null ? ['No webhook: key events are not sent anywhere.'] : ['Sending key events to ', h('code', {}, url), '.']),
    );
    this.#showFailures(failing);
    this.#remove.hidden = url === null;
  }

  /** "N deliveries failed (last: answered 500, <time>)." or nothing. */
  #showFailures(failing: WebhookEndpoint | null): void {
    const { failed = 0, lastFailure = null } = failing?.deliveries ?? {};
    const count = `${failed} ${failed === 1 ? 'delivery' : 'deliveries'} failed`;
    this.#failures.replaceChildren(
      ...(failed === 0
        ? []
        : lastFailure === null
          ? [`${count}.`]
          : [`${count} (last: ${lastFailure.reason}, `, timeOf(lastFailure.at, ''), ').']),
    );
    this.#failures.hidden = failed === 0;
  }

  #hideSecret(): void {
    this.#secret.value = '';
    this.#secretPanel.hidden = true;
  }

  async #set(): Promise<void> {
    const api = this.#api;
    if (api === null) return;
    this.#save.disabled = true;
    try {
      const { url, secret } = await api.setWebhook(this.#url.value.trim());
      if (this.#api !== api) return;
      this.#form.reset();
      this.#show(url);
      this.#secret.value = secret;
      this.#secretPanel.hidden = false;
      this.#announcer.status('Webhook saved. Copy its signing secret now: it cannot be shown again.');
      focus(this.#secret);
    } catch (error) {
      reportError(this.#announcer, error);
    } finally {
      this.#save.disabled = false;
    }
  }

  async #unset(): Promise<void> {
    const api = this.#api;
    if (api === null) return;
    this.#remove.disabled = true;
    try {
      await api.removeWebhook();
      if (this.#api !== api) return;
      this.#hideSecret();
      this.#show(null);
      this.#announcer.status('Webhook removed: key events are no longer sent.');
      focus(this.#heading);
    } catch (error) {
      reportError(this.#announcer, error);
    } finally {
      this.#remove.disabled = false;
    }
  }
}
