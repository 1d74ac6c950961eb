import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { UnavailableError } from '../errors/index.js';
import { createIdTokenVerifier } from '../id-token/create-id-token-verifier.js';
import { oidc } from '../id-token/presets.js';

const MiB = 1024 * 1024;
const HUGE = 64 * MiB;

/** A loopback endpoint answering every path with `HUGE` bytes of JSON-ish text, chunked (no Content-Length). */
async function hugeEndpoint(): Promise<{ url: string; written: () => number; server: Server }> {
  let written = 0;
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    let sent = 0;
    const pump = (): void => {
      while (sent < HUGE && !res.destroyed) {
        sent += chunk.length;
        const more = res.write(chunk, (error) => {
          if (!error) written += chunk.length;
        });
        if (!more) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end();
    };
    res.write('{"keys":[');
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, written: () => written, server };
}

/** A compact JWS whose header names a key id: verifying it needs the key set. */
const TOKEN = `${Buffer.from('{"alg":"RS256","kid":"k1","typ":"JWT"}').toString('base64url')}.${Buffer.from('{"sub":"a"}').toString('base64url')}.c2ln`;

let open: Server | null = null;
afterEach(async () => {
  open?.closeAllConnections();
  await new Promise((resolve) => open?.close(resolve));
  open = null;
});

// Issue 35, item 7: a 400 MiB answer added 350 MiB of memory before the 503. The 512 KiB cap
// now holds while the document streams in: the read stops there and the connection is closed.
describe('key set and discovery documents past 512 KiB', () => {
  it('a 64 MiB key set is a 503, read no further than the cap and the socket buffers', async () => {
    const endpoint = await hugeEndpoint();
    open = endpoint.server;
    const verifier = createIdTokenVerifier({
      issuer: 'https://issuer.example',
      audience: 'a',
      jwksUrl: `${endpoint.url}/jwks`,
      fetchTimeoutMs: 20_000,
    });
    const error = await verifier.verify(TOKEN).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error).toMatchObject({ status: 503 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(endpoint.written()).toBeLessThan(16 * MiB);
  });

  it('a 64 MiB discovery document is a 503 the same way', async () => {
    const endpoint = await hugeEndpoint();
    open = endpoint.server;
    const verifier = createIdTokenVerifier({ ...oidc({ issuer: endpoint.url, audience: 'a' }), fetchTimeoutMs: 20_000 });
    const error = await verifier.verify(TOKEN).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnavailableError);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(endpoint.written()).toBeLessThan(16 * MiB);
  });
});
