// Runs the "Serving it from another server" example of docs/dashboard.md: the built page, its
// configuration and its headers, served by Express on loopback.
import * as check from 'node:assert/strict';
import { overHttp, setEnv, urlOf } from '../harness/support.js';

// A server configured for Firebase, with the project's Web API key in the environment.
const config = { identity: { kind: 'firebase', projectId: 'my-project' } } as const;
setEnv('FIREBASE_API_KEY', 'web-api-key-of-my-project');

// <<example>>

const send = overHttp(await urlOf(app.listen(0, '127.0.0.1')));

const configured = await send('/dashboard/config.json');
check.equal(configured.headers.get('cache-control'), 'no-store');
check.deepEqual(await configured.json(), {
  identity: {
    mode: 'firebase',
    firebase: { apiKey: 'web-api-key-of-my-project', authDomain: 'my-project.firebaseapp.com', projectId: 'my-project' },
    providers: ['google', 'github', 'apple'],
  },
});

const page = await send('/dashboard/');
check.equal(page.status, 200);
check.match(page.headers.get('content-type') ?? '', /^text\/html/);
check.equal(page.headers.get('cache-control'), 'no-store');
// The page's own headers, but scripts by this response's nonce: never 'self'.
const nonce = /script-src 'nonce-([^']+)' 'strict-dynamic'/.exec(page.headers.get('content-security-policy') ?? '')?.[1];
check.ok(nonce !== undefined, page.headers.get('content-security-policy') ?? '');
for (const [name, value] of Object.entries(headers)) {
  if (name !== 'content-security-policy') check.equal(page.headers.get(name), value, name);
}
const html = await page.text();
check.match(html, /<html/i);
check.ok(html.includes(`<script nonce="${nonce}" `), 'the page script carries the nonce');

// "express.static redirects /dashboard to /dashboard/"
const bare = await send('/dashboard', { redirect: 'manual' });
check.equal(bare.status, 301);
check.equal(bare.headers.get('location'), '/dashboard/');
