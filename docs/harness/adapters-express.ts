// Runs the Express section of docs/adapters.md as written: the app listens (PORT=0 here), and its
// first run (a development ID token, a key, the routes of the section's table) works over HTTP.
import { expectTheFirstRun, overHttp, setEnv, urlOf } from '../harness/support.js';

setEnv('PORT', '0');

// <<example>>

await expectTheFirstRun(overHttp(await urlOf(server)));
