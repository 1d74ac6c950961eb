// Runs the Hono section of docs/adapters.md as written, on Node: the app listens (PORT=0 here),
// and its first run (a development ID token, a key, the routes of the section's table) works over HTTP.
import type { Server } from 'node:http';
import { expectTheFirstRun, overHttp, setEnv, urlOf } from '../harness/support.js';

setEnv('PORT', '0');

// <<example>>

await expectTheFirstRun(overHttp(await urlOf(server as Server)));
