/** The element with `id`, checked to be of the expected type (the page's HTML and code agree). */
export function byId<T extends HTMLElement>(id: string, type: { new (): T; prototype: T }): T {
  const el = document.getElementById(id);
  if (!(el instanceof type)) throw new Error(`dashboard page: #${id} is missing or not a ${type.name}`);
  return el;
}

type Child = Node | string | null;

/** Builds an element; text goes in as text nodes, never as HTML. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
  for (const child of children) if (child !== null) el.append(child);
  return el;
}

/** Moves focus to `el` (making it focusable by script if needed) and scrolls it into view. */
export function focus(el: HTMLElement): void {
  if (!el.hasAttribute('tabindex') && el.tabIndex < 0) el.setAttribute('tabindex', '-1');
  el.focus();
}

/**
 * The page's two live regions: `status` (polite: "Key revoked") and `alert` (assertive: errors).
 * Each message replaces the last; the same message twice is announced twice.
 */
export class Announcer {
  readonly #status: HTMLElement;
  readonly #alert: HTMLElement;

  constructor(status: HTMLElement, alert: HTMLElement) {
    this.#status = status;
    this.#alert = alert;
  }

  status(message: string): void {
    this.#alert.textContent = '';
    Announcer.#say(this.#status, message);
  }

  alert(message: string): void {
    Announcer.#say(this.#alert, message);
  }

  clear(): void {
    this.#status.textContent = '';
    this.#alert.textContent = '';
  }

  static #say(region: HTMLElement, message: string): void {
    region.textContent = '';
    // A change a beat later, so screen readers announce it even when the text repeats.
    setTimeout(() => {
      region.textContent = message;
    }, 50);
  }
}
