// Loaded with a dynamic import, only in Firebase mode: the Firebase Web SDK is bundled here.
import { initializeApp } from 'firebase/app';
import {
  browserPopupRedirectResolver,
  GithubAuthProvider,
  GoogleAuthProvider,
  inMemoryPersistence,
  initializeAuth,
  OAuthProvider,
  signInWithPopup,
  signOut,
  type Auth,
  type AuthProvider,
  type User,
} from 'firebase/auth';
import type { FirebaseSignInProvider, FirebaseWebConfig } from '../dashboard-config.js';
import { SignInError } from './dev-identity.js';
import type { IdentityGrant, IdentitySource } from './session.js';

let auth: Auth | null = null;

function authFor(config: FirebaseWebConfig): Auth {
  // In-memory persistence: the SDK keeps the user (and its refresh token) in this tab's memory,
  // not in IndexedDB or localStorage. Reloading the page signs out.
  auth ??= initializeAuth(initializeApp(config), {
    persistence: inMemoryPersistence,
    popupRedirectResolver: browserPopupRedirectResolver,
  });
  return auth;
}

function providerFor(name: FirebaseSignInProvider): AuthProvider {
  switch (name) {
    case 'google':
      return new GoogleAuthProvider();
    case 'github':
      return new GithubAuthProvider();
    case 'apple':
      return new OAuthProvider('apple.com');
  }
}

const MESSAGES: Record<string, string> = {
  'auth/popup-closed-by-user': 'Sign-in was cancelled.',
  'auth/cancelled-popup-request': 'Sign-in was cancelled.',
  'auth/popup-blocked': 'The browser blocked the sign-in window. Allow pop-ups for this page and try again.',
  'auth/unauthorized-domain':
    'This address is not an authorized domain of the Firebase project (Authentication, Settings, Authorized domains).',
  'auth/operation-not-allowed': 'This sign-in method is not enabled in the Firebase project.',
  'auth/account-exists-with-different-credential':
    'An account already exists with the same email address but another sign-in method. Use that method.',
  'auth/network-request-failed': 'The identity provider could not be reached. Check your connection and try again.',
};

async function grantOf(user: User, forceRefresh: boolean): Promise<IdentityGrant> {
  const result = await user.getIdTokenResult(forceRefresh);
  const lifetime = Date.parse(result.expirationTime) - Date.parse(result.issuedAtTime);
  return { idToken: result.token, expiresInMs: Number.isFinite(lifetime) && lifetime > 0 ? lifetime : 55 * 60_000 };
}

/** Signs in with a Firebase popup. Refreshing forces a new ID token from Firebase. */
export async function firebaseSignIn(
  config: FirebaseWebConfig,
  provider: FirebaseSignInProvider,
): Promise<{ source: IdentitySource; grant: IdentityGrant }> {
  const a = authFor(config);
  let user: User;
  try {
    ({ user } = await signInWithPopup(a, providerFor(provider)));
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new SignInError(typeof code === 'string' ? (MESSAGES[code] ?? `Sign-in failed (${code}).`) : 'Sign-in failed.');
  }
  const grant = await grantOf(user, false);
  return {
    grant,
    source: {
      accountLabel: user.displayName ?? user.email ?? user.uid,
      refresh: () => grantOf(user, true),
      signOut: () => signOut(a),
    },
  };
}
