// Runs the Hono `/keys` routes of docs/adapters.md, mounted on a Hono app as the section shows.
import { dropsAuth } from '@drops/auth-hono';
import { Hono } from 'hono';
import { adapterContext, expectTheKeysRoutes } from '../harness/support.js';

// What the section starts from: `authenticator`, `keys` (a local identity provider stands in for
// Firebase), and the Hono `app` and `auth` of the routes above.
const context = await adapterContext();
const { authenticator, keys } = context;
const app = new Hono();
const auth = dropsAuth({ authenticator, keys });

// <<example>>

await expectTheKeysRoutes(async (path, init) => app.request(path, init), context.idp.mintIdToken({ sub: 'acct-keys' }));
