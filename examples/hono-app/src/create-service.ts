import { createAuthenticator, createKeyManager, MemoryKeyStore, type IdTokenVerifier } from '@drops/auth';
import type { ClientIp } from '@drops/auth-hono';
import type { Hono } from 'hono';
import { createApp } from './app.js';

/**
 * The app wired to drops auth with keys in memory (`MemoryKeyStore`): what every runtime's entry
 * serves (main.ts for Node, bun.ts, deno.ts, worker.ts for Cloudflare workerd), each saying where
 * its runtime keeps the client's address.
 */
export function createService(idTokenVerifier: IdTokenVerifier, clientIp?: ClientIp): Hono {
  const keyStore = new MemoryKeyStore();
  return createApp({
    authenticator: createAuthenticator({ keyStore, idTokenVerifier }),
    keys: createKeyManager({ keyStore }),
    clientIp,
  });
}
