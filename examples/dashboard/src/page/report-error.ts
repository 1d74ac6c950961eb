import { ApiError } from './api.js';
import { SignInError } from './dev-identity.js';
import type { Announcer } from './dom.js';
import { SessionEndedError } from './session.js';

/**
 * Tells the person what went wrong. An ended session needs no message here: the page is already
 * back at sign-in, saying why.
 */
export function reportError(announcer: Announcer, error: unknown): void {
  if (error instanceof SessionEndedError) return;
  if (error instanceof ApiError || error instanceof SignInError) announcer.alert(error.message);
  else announcer.alert('Something went wrong. Reload the page and try again.');
}
