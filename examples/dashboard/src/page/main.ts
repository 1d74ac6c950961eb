import type { DashboardConfig } from '../dashboard-config.js';
import { createApi } from './api.js';
import { Announcer, byId, focus } from './dom.js';
import { DropsView } from './drops-view.js';
import { EventsView } from './events-view.js';
import { durationOf } from './format.js';
import { KeysView } from './keys-view.js';
import { ConfirmDialog } from './modal-dialog.js';
import { reportError } from './report-error.js';
import { Session, type SessionEndReason } from './session.js';
import { SignInView, type SignedIn } from './sign-in-view.js';
import { WebhookView } from './webhook-view.js';

// The page is served at /dashboard/ by the API server itself: the API is on the same origin.
const baseUrl = location.origin;

async function loadConfig(): Promise<DashboardConfig> {
  try {
    const res = await fetch(new URL('config.json', document.baseURI), { cache: 'no-store', credentials: 'omit' });
    if (res.ok) return (await res.json()) as DashboardConfig;
    return {
      identity: { mode: 'unavailable', reason: `The dashboard configuration could not be loaded (the server answered ${res.status}).` },
    };
  } catch {
    return { identity: { mode: 'unavailable', reason: 'The server could not be reached. Reload the page to try again.' } };
  }
}

async function start(): Promise<void> {
  const announcer = new Announcer(byId('status', HTMLDivElement), byId('alert', HTMLDivElement));
  const accountView = byId('account-view', HTMLDivElement);
  const accountBar = byId('account-bar', HTMLDivElement);
  const accountLabel = byId('account-label', HTMLElement);
  const accountHeading = byId('account-heading', HTMLHeadingElement);
  const events = new EventsView(announcer);
  const keys = new KeysView(announcer, () => void events.refresh());
  const drops = new DropsView(announcer, baseUrl);
  const webhook = new WebhookView(announcer);
  let session: Session | null = null;
  let api: ReturnType<typeof createApi> | null = null;
  const signOutEverywhereDialog = new ConfirmDialog({
    id: 'sign-out-everywhere',
    question: 'Sign out',
    description:
      'Every sign-in of this account until now is refused, on every device and browser, this one included: ' +
      'anyone using one must sign in again. API keys are not affected.',
    confirm: 'Sign out everywhere',
    danger: true,
  });

  const config = await loadConfig();
  const maxAuthAge = config.mintMaxAuthAgeSeconds ?? null;
  const endMessages: Record<SessionEndReason, string> = {
    expired: 'Your session expired. Sign in again.',
    'signed-out': 'Signed out.',
    'signed-out-everywhere':
      'Signed out everywhere: every earlier sign-in, on any device, is refused. Sign in again. ' +
      'API keys still work: revoke them too (Revoke all keys) if someone else may hold one.',
    'sign-in-again':
      maxAuthAge !== null
        ? `To mint a key, sign in again: this server mints keys only within ${durationOf(maxAuthAge)} of signing in.`
        : 'Your session expired. Sign in again.',
  };

  const onEnd = (reason: SessionEndReason): void => {
    session = null;
    keys.stop();
    events.stop();
    drops.stop();
    webhook.stop();
    accountView.hidden = true;
    accountBar.hidden = true;
    accountLabel.textContent = '';
    signIn.show();
    announcer.status(endMessages[reason]);
  };

  const onSignedIn = ({ source, grant }: SignedIn): void => {
    session?.end('signed-out');
    const current = new Session(source, grant, { onEnd });
    session = current;
    api = createApi(current, baseUrl, { mintNeedsRecentSignIn: maxAuthAge !== null });
    signIn.hide();
    accountLabel.textContent = current.accountLabel;
    accountBar.hidden = false;
    accountView.hidden = false;
    focus(accountHeading);
    announcer.status(`Signed in as ${current.accountLabel}.`);
    void Promise.all([keys.start(api), events.start(api), drops.start(api), webhook.start(api)]);
  };

  const signIn = new SignInView(config, baseUrl, announcer, onSignedIn);
  byId('sign-out', HTMLButtonElement).addEventListener('click', () => void session?.signOut());
  const everywhere = byId('sign-out-everywhere', HTMLButtonElement);
  everywhere.addEventListener('click', async () => {
    const [current, currentApi] = [session, api];
    if (current === null || currentApi === null || !(await signOutEverywhereDialog.ask('everywhere'))) return;
    everywhere.disabled = true;
    try {
      await currentApi.signOutEverywhere();
      await current.signOut('signed-out-everywhere');
    } catch (error) {
      reportError(announcer, error);
    } finally {
      everywhere.disabled = false;
    }
  });

  byId('loading', HTMLParagraphElement).hidden = true;
  signIn.show();
}

void start();
