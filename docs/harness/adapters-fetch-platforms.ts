// Runs the Next.js route handler and the Bun.serve handler of docs/adapters.md on Node, by calling
// them with a `Request` as the platform would. Bun.serve itself runs in runtime-tests/.
import * as check from 'node:assert/strict';
import { adapterContext, signIn, type Drop } from '../harness/support.js';

// What the section starts from: `authenticator` (a local identity provider stands in for
// Firebase), and the app's own data access.
const context = await adapterContext();
const { authenticator } = context;
const listDrops = async (owner: string): Promise<Drop[]> => context.drops.listByOwner(owner);

/** Node has no `Bun`: this stand-in keeps the handler `Bun.serve` is given, for the checks to call. */
const served: Array<(request: Request) => Response | Promise<Response>> = [];
const Bun = {
  serve(options: { fetch: (request: Request) => Response | Promise<Response> }): void {
    served.push(options.fetch);
  },
};

// <<example>>

const { apiKey } = await signIn(context);
context.drops.create('acct-docs');
const withKey = { headers: { authorization: `Bearer ${apiKey}` } };

const listed = await GET(new Request('https://drops.example/drops', withKey));
check.equal(listed.status, 200);
check.deepEqual(await listed.json(), { drops: [{ owner: 'acct-docs', bytes: 0 }] });
check.equal((await GET(new Request('https://drops.example/drops'))).status, 401);

const [bunFetch] = served;
check.ok(bunFetch, 'Bun.serve was called');
const anonymous = await bunFetch(new Request('https://drops.example/deploy', { method: 'POST' }));
check.deepEqual([anonymous.status, await anonymous.json()], [201, { owner: null }]);
const owned = await bunFetch(new Request('https://drops.example/deploy', { method: 'POST', ...withKey }));
check.deepEqual([owned.status, await owned.json()], [201, { owner: 'acct-docs' }]);
const badKey = { headers: { authorization: `Bearer hp_${'A'.repeat(43)}` } };
check.equal((await bunFetch(new Request('https://drops.example/deploy', { method: 'POST', ...badKey }))).status, 401);
