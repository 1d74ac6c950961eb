import type { DashboardConfig, FirebaseSignInProvider, FirebaseWebConfig } from '../dashboard-config.js';
import { devSignIn } from './dev-identity.js';
import { type Announcer, byId, focus, h } from './dom.js';
import { reportError } from './report-error.js';
import type { IdentityGrant, IdentitySource } from './session.js';

/** A completed sign-in: who, and their first ID token. */
export interface SignedIn {
  readonly source: IdentitySource;
  readonly grant: IdentityGrant;
}

const PROVIDER_NAMES: Record<FirebaseSignInProvider, string> = { google: 'Google', github: 'GitHub', apple: 'Apple' };

/**
 * The sign-in form for the configured identity provider: a name (development provider) or one
 * button per Firebase provider. Firebase's SDK is imported only when someone uses one.
 */
export class SignInView {
  readonly #announcer: Announcer;
  readonly #section = byId('sign-in-view', HTMLElement);
  readonly #heading = byId('sign-in-heading', HTMLHeadingElement);
  readonly #devForm = byId('dev-sign-in', HTMLFormElement);
  readonly #devName = byId('dev-name', HTMLInputElement);
  readonly #firebase = byId('firebase-sign-in', HTMLDivElement);
  readonly #unavailable = byId('sign-in-unavailable', HTMLParagraphElement);
  readonly #onSignedIn: (signedIn: SignedIn) => void;

  constructor(config: DashboardConfig, baseUrl: string, announcer: Announcer, onSignedIn: (signedIn: SignedIn) => void) {
    this.#announcer = announcer;
    this.#onSignedIn = onSignedIn;
    const identity = config.identity;
    switch (identity.mode) {
      case 'dev':
        this.#devForm.hidden = false;
        this.#devForm.addEventListener('submit', (event) => {
          event.preventDefault();
          void this.#attempt(this.#devForm.querySelector('button'), () => devSignIn(baseUrl, this.#devName.value.trim()));
        });
        break;
      case 'firebase':
        this.#firebase.hidden = false;
        for (const provider of identity.providers) {
          const button = h('button', { type: 'button' }, `Sign in with ${PROVIDER_NAMES[provider]}`);
          button.addEventListener('click', () => void this.#attempt(button, () => signInWithFirebase(identity.firebase, provider)));
          this.#firebase.append(button);
        }
        break;
      case 'unavailable':
        this.#unavailable.hidden = false;
        this.#unavailable.textContent = identity.reason;
        break;
    }
  }

  /** Shows sign-in and moves focus to its heading. */
  show(): void {
    this.#section.hidden = false;
    focus(this.#heading);
  }

  hide(): void {
    this.#section.hidden = true;
    this.#devForm.reset();
  }

  async #attempt(button: HTMLButtonElement | null, signIn: () => Promise<SignedIn>): Promise<void> {
    if (button !== null) button.disabled = true;
    this.#announcer.status('Signing in…');
    try {
      this.#onSignedIn(await signIn());
    } catch (error) {
      reportError(this.#announcer, error);
    } finally {
      if (button !== null) button.disabled = false;
    }
  }
}

async function signInWithFirebase(config: FirebaseWebConfig, provider: FirebaseSignInProvider): Promise<SignedIn> {
  const { firebaseSignIn } = await import('./firebase-identity.js');
  return firebaseSignIn(config, provider);
}
