// Bun and Deno: `@drops/auth/testing` as a user of that runtime imports it, next to the core.
// Runs the KeyStore conformance suite on the core's MemoryKeyStore and verifies a token from the
// LocalIdentityProvider, then serves what it found as JSON (over node:http, which both provide).
import { createServer } from 'node:http';
import { createIdTokenVerifier, keyIdOf, MemoryKeyStore } from '@drops/auth';
import { LocalIdentityProvider, sampleKeyRecord } from '@drops/auth/testing';
import { describeKeyStoreConformance } from '@drops/auth/testing/conformance';
import { runSuite } from '../run-suite.js';

/** Where this runtime resolves each entry point of the package. */
const resolved = Object.fromEntries(
  ['@drops/auth', '@drops/auth/testing', '@drops/auth/testing/conformance', '@drops/auth/internal'].map((specifier) => [
    specifier,
    import.meta.resolve(specifier),
  ]),
);

const conformance = await runSuite((api) =>
  describeKeyStoreConformance(api, 'MemoryKeyStore', async () => ({ store: new MemoryKeyStore({ minUseIntervalMs: 0 }) })),
);

const sample = sampleKeyRecord();
const idp = await LocalIdentityProvider.start({ audience: 'drops-testing-entry' });
let verifiedSub: string;
try {
  const claims = await createIdTokenVerifier(idp.verifierOptions).verify(idp.mintIdToken({ sub: 'user_testing' }));
  verifiedSub = claims.sub;
} finally {
  await idp.close();
}

const report = JSON.stringify({ resolved, conformance, sampleIdIsKeyIdOfItsSecret: keyIdOf(sample.secret) === sample.id, verifiedSub });
const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' }).end(report);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening on ${typeof address === 'object' && address !== null ? address.port : address}`);
});
