// Runs the Hono routes of docs/adapters.md: the app, called as its fetch handler, answers as the
// section's table says.
import { adapterContext, expectTheThreeKindsOfRoute } from '../harness/support.js';

// What the section starts from: `authenticator`, `keys` (a local identity provider stands in for
// Firebase) and `drops`, the app's own table.
const context = await adapterContext();
const { authenticator, keys, drops } = context;

// <<example>>

await expectTheThreeKindsOfRoute(async (path, init) => app.request(path, init), context);
