// Runs the Next.js App Router `/keys` route of docs/adapters.md on Node, calling its exports as
// Next would: a `Request` and the route context `{ params }` of `app/keys/[[...rest]]/route.ts`.
import * as check from 'node:assert/strict';
import { snapshotOf, UNIFORM_401 } from '@drops/auth/testing';
import { adapterContext, afterExample } from '../harness/support.js';

const context = await adapterContext();
afterExample(() => context.idp.close());
const { authenticator, keys } = context;

// <<example>>

type Handler = (request: Request, context: { params: Promise<{ rest?: string[] }> }) => Promise<Response>;

/** Called with the block's module once loaded: its exports are the route handlers Next would call. */
export async function checkExports(
  module: Record<'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS', Handler>,
): Promise<void> {
  const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = module;
  const routeContext = (rest?: string[]) => ({ params: Promise.resolve(rest === undefined ? {} : { rest }) });
  // Every method under /keys without a credential: the uniform 401, from the handler, never Next's 405.
  for (const [method, exported] of Object.entries({ GET, POST, PUT, PATCH, DELETE, OPTIONS })) {
    check.deepEqual(
      await snapshotOf(await exported(new Request('https://drops.example/keys', { method }), routeContext())),
      UNIFORM_401,
      method,
    );
  }
  check.equal((await HEAD(new Request('https://drops.example/keys', { method: 'HEAD' }), routeContext())).status, 401);
  // A sign-in mints; the event records the address the proxy header gave, never Next's context.
  const headers = { authorization: `Bearer ${context.idp.mintIdToken({ sub: 'acct-next' })}`, 'x-real-ip': '203.0.113.5' };
  const minted = await POST(new Request('https://drops.example/keys', { method: 'POST', headers }), routeContext());
  check.equal(minted.status, 201);
  const events = await GET(new Request('https://drops.example/keys/events', { headers }), routeContext(['events']));
  const [event] = ((await events.json()) as { events: Array<{ type: string; ip: string | null }> }).events;
  check.deepEqual([event?.type, event?.ip], ['minted', '203.0.113.5']);
}
