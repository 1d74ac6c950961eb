// Runs the Next.js module of docs/adapters.md on Node, calling its handlers as Next would call the
// route files that re-export them: a `Request`, and the route context `{ params }`.
import * as check from 'node:assert/strict';
import { snapshotOf, UNIFORM_401 } from '@drops/auth/testing';
import { expectTheFirstRun, type Send } from '../harness/support.js';

// <<example>>

type Handler = (request: Request, context: { params: Promise<{ rest?: string[] }> }) => Promise<Response>;

/** Called with the block's module once loaded: the handlers the route files re-export. */
export async function checkExports(module: Record<'devToken' | 'keysRoute' | 'drops', Handler>): Promise<void> {
  const routes: Record<string, Handler> = { '/dev/token': module.devToken, '/drops': module.drops };
  const send: Send = (path, init) => {
    const url = new URL(path, 'https://drops.example');
    const rest = url.pathname.split('/').filter(Boolean).slice(1);
    const handler = url.pathname.startsWith('/keys') ? module.keysRoute : routes[url.pathname];
    if (handler === undefined) return Promise.resolve(new Response(null, { status: 404 }));
    return handler(new Request(url, init), { params: Promise.resolve(rest.length === 0 ? {} : { rest }) });
  };
  await expectTheFirstRun(send, { deploy: false, account: false });
  // Every method under /keys without a credential: the uniform 401, from the handler, never Next's 405.
  for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
    check.deepEqual(await snapshotOf(await send('/keys', { method })), UNIFORM_401, method);
  }
  // A sign-in mints; the event records the address the proxy header gave, never Next's context.
  const { idToken } = (await (await send('/dev/token', { method: 'POST', body: '{"name":"acct-next"}' })).json()) as { idToken: string };
  const headers = { authorization: `Bearer ${idToken}`, 'x-real-ip': '203.0.113.5' };
  check.equal((await send('/keys', { method: 'POST', headers })).status, 201);
  const events = await send('/keys/events', { headers });
  const [event] = ((await events.json()) as { events: Array<{ type: string; ip: string | null }> }).events;
  check.deepEqual([event?.type, event?.ip], ['minted', '203.0.113.5']);
}
