import type { IdentityGrant, IdentitySource } from './session.js';

/** A name the development identity provider accepts (the server checks the same). */
export const DEV_NAME_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/** Sign-in failed for a reason to show the person. */
export class SignInError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignInError';
  }
}

async function devToken(baseUrl: string, name: string): Promise<IdentityGrant> {
  let res: Response;
  try {
    res = await fetch(new URL('/dev/token', baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
      cache: 'no-store',
      credentials: 'omit',
    });
  } catch {
    throw new SignInError('The server could not be reached. Check that it is running and try again.');
  }
  if (res.status !== 200) {
    const body = (await res.json().catch(() => null)) as { error?: unknown } | null;
    throw new SignInError(
      typeof body?.error === 'string' ? `Sign-in failed: ${body.error}` : `Sign-in failed: the server answered ${res.status}.`,
    );
  }
  const body = (await res.json()) as { idToken: string; expiresIn: number };
  return { idToken: body.idToken, expiresInMs: body.expiresIn * 1000 };
}

/**
 * Signs in with the server's development identity provider (`POST /dev/token`): the name is the
 * account. Refreshing asks for a new token for the same name.
 */
export async function devSignIn(baseUrl: string, name: string): Promise<{ source: IdentitySource; grant: IdentityGrant }> {
  if (!DEV_NAME_PATTERN.test(name)) {
    throw new SignInError('Enter a name of 1 to 64 letters, digits, ".", "_" or "-".');
  }
  const grant = await devToken(baseUrl, name);
  return {
    grant,
    source: {
      accountLabel: name,
      refresh: () => devToken(baseUrl, name),
      signOut: async () => {},
    },
  };
}
