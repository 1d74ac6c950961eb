// Runs the Fastify section of docs/adapters.md: its app, served on loopback, answers as the
// section's table says.
import { adapterContext, expectTheKeysRoutes, expectTheThreeKindsOfRoute, overHttp, urlOf } from '../harness/support.js';

// What the section starts from: `authenticator`, `keys` (a local identity provider stands in for
// Firebase) and `drops`, the app's own table.
const context = await adapterContext();
const { authenticator, keys, drops } = context;

// <<example>>

await app.listen({ port: 0, host: '127.0.0.1' });
const send = overHttp(await urlOf(app.server));
await expectTheThreeKindsOfRoute(send, context);
await expectTheKeysRoutes(send, context.idp.mintIdToken({ sub: 'acct-keys' }));
