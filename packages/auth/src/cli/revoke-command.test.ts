/**
 * `drops-auth revoke` and `drops-auth scan --revoke` (the built binary): end to end against the
 * real routes (`keysHandler` and `leakedKeysHandler` on a MemoryKeyStore), then against a loopback
 * server that records what they send and answers what the real route rarely does (429 with a given
 * `Retry-After`, 5xx, redirects): what they print (never a secret), and how they answer refusals.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateApiKey } from '../api-key/generate-api-key.js';
import { keyIdOf } from '../api-key/key-id.js';
import { createAuthenticator } from '../authenticator/create-authenticator.js';
import { createIdTokenVerifier } from '../id-token/create-id-token-verifier.js';
import { MemoryKeyStore } from '../key-store/memory-key-store.js';
import { createKeyManager } from '../keys/create-key-manager.js';
import { LocalIdentityProvider } from '../testing/local-identity-provider.js';
import { snapshotOf, UNIFORM_401 } from '../testing/uniform-401.js';
import { keysHandler } from '../fetch/keys-handler.js';
import { leakedKeysHandler } from '../fetch/leaked-keys-handler.js';
import { serveFetch, type FetchTestServer } from '../fetch/test-fetch-server.js';
import { spawnCli, type CliRun } from './test-spawn-cli.js';

interface Received {
  readonly path: string;
  readonly contentType: string | undefined;
  readonly credentials: string[];
}

type Responder = (request: Received, res: ServerResponse) => void;

/** The documented contract: 1..1000 credentials, else 400 {error}; 202 with the same bytes always. */
const contract: Responder = (request, res) => {
  const count = request.credentials.length;
  if (count < 1 || count > 1000) {
    res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"credentials must hold 1 to 1000 strings"}');
    return;
  }
  res.writeHead(202, { 'content-type': 'application/json' }).end('{"status":"accepted"}');
};

let server: Server;
let base: string;
let tmp: string;
let received: Received[];
let respond: Responder;

const secrets = Array.from({ length: 4 }, () => generateApiKey().secret);
const [k1, k2, k3, k4] = secrets as [string, string, string, string];

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += String(chunk);
  return body;
}

/** Runs the CLI and checks that no output holds a secret it could have seen. */
async function run(args: readonly string[], input?: string, extraSecrets: readonly string[] = []): Promise<CliRun> {
  const result = await spawnCli(args, { input, cwd: tmp });
  for (const secret of [...secrets, ...extraSecrets]) {
    expect(result.stdout).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
  }
  return result;
}

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'drops-auth-revoke-'));
  server = createServer((req, res) => {
    void readBody(req).then((body) => {
      let credentials: string[] = [];
      try {
        credentials = (JSON.parse(body) as { credentials: string[] }).credentials;
      } catch {
        // recorded as empty; the contract answers 400
      }
      const request = { path: req.url ?? '', contentType: req.headers['content-type'], credentials };
      received.push(request);
      respond(request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

beforeEach(() => {
  received = [];
  respond = contract;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('against the real routes (keysHandler, leakedKeysHandler, MemoryKeyStore)', () => {
  let idp: LocalIdentityProvider;
  let real: FetchTestServer;
  /** Waits for the revocations by value the server recorded (carried out after its 202). */
  let revocationsDone: () => Promise<void>;
  const minted: string[] = [];

  beforeAll(async () => {
    idp = await LocalIdentityProvider.start();
    const keyStore = new MemoryKeyStore();
    const keys = createKeyManager({ keyStore });
    revocationsDone = () => keys.revokePending();
    const keyRoutes = keysHandler(
      createAuthenticator({ keyStore, idTokenVerifier: createIdTokenVerifier({ ...idp.verifierOptions }) }),
      keys,
    );
    const leaked = leakedKeysHandler(keys, { githubSecretScanning: false });
    real = await serveFetch((request, client) =>
      new URL(request.url).pathname.startsWith('/keys') ? keyRoutes(request, client) : leaked(request, client),
    );
  });
  afterAll(async () => {
    await real?.close();
    await idp?.close();
  });

  async function mint(): Promise<{ apiKey: string; id: string }> {
    const res = await fetch(`${real.url}/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${idp.mintIdToken({ sub: 'cli-owner' })}` },
    });
    expect(res.status).toBe(201);
    const key = (await res.json()) as { apiKey: string; id: string };
    minted.push(key.apiKey);
    return key;
  }

  const listKeys = (apiKey: string): Promise<Response> => fetch(`${real.url}/keys`, { headers: { authorization: `Bearer ${apiKey}` } });

  it('revoke: a minted key piped in is revoked, and then gets the uniform 401', async () => {
    const key = await mint();
    expect((await listKeys(key.apiKey)).status).toBe(200);
    const result = await run(['revoke', '--url', real.url], `leaked in a paste: ${key.apiKey}\n`, minted);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`${key.apiKey.slice(0, 10)}  id ${key.id}\n`);
    expect(result.stderr).toContain(`${real.url}/credentials/revoke accepted 1 key in 1 request`);
    await revocationsDone();
    expect(await snapshotOf(await listKeys(key.apiKey))).toEqual(UNIFORM_401);
  });

  it('scan --revoke: the key found in a file is revoked; another key stays valid', async () => {
    const found = await mint();
    const kept = await mint();
    await mkdir(join(tmp, 'real'), { recursive: true });
    await writeFile(join(tmp, 'real', '.env'), `DROPS_API_KEY=${found.apiKey}\n`);
    const result = await run(['scan', '--revoke', real.url, 'real'], undefined, minted);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(`prefix ${found.apiKey.slice(0, 10)}  id ${found.id}`);
    await revocationsDone();
    expect(await snapshotOf(await listKeys(found.apiKey))).toEqual(UNIFORM_401);
    expect((await listKeys(kept.apiKey)).status).toBe(200);
  });
});

describe('drops-auth revoke', () => {
  it('has --help, also as drops-auth help revoke', async () => {
    for (const args of [
      ['revoke', '--help'],
      ['help', 'revoke'],
    ]) {
      const result = await run(args);
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/Usage: drops-auth revoke --url <base URL>/);
    }
  });

  it('sends the distinct keys on stdin to POST <base>/credentials/revoke and prints prefixes and ids only', async () => {
    const result = await run(['revoke', '--url', base], `found in a gist:\n${k1}\nDROPS_API_KEY=${k2} again ${k1}\n`);
    expect(result.status).toBe(0);
    expect(received).toEqual([{ path: '/credentials/revoke', contentType: 'application/json', credentials: [k1, k2] }]);
    expect(result.stdout).toBe(`${k1.slice(0, 10)}  id ${keyIdOf(k1)}\n${k2.slice(0, 10)}  id ${keyIdOf(k2)}\n`);
    expect(result.stderr).toContain('revoking 2 keys found in stdin');
    expect(result.stderr).toContain(`${base}/credentials/revoke accepted 2 keys in 1 request`);
  });

  it('reads named files, says where each key was found, and keeps a base path', async () => {
    await writeFile(join(tmp, 'a.env'), `A=${k1}\nB=${k2}\n`);
    await writeFile(join(tmp, 'b.yml'), `key: ${k2}\n`);
    const result = await run(['revoke', '--json', '--url', `${base}/api/`, 'a.env', 'b.yml']);
    expect(result.status).toBe(0);
    expect(received).toEqual([{ path: '/api/credentials/revoke', contentType: 'application/json', credentials: [k1, k2] }]);
    expect(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual([
      { prefix: k1.slice(0, 10), id: keyIdOf(k1), files: ['a.env'] },
      { prefix: k2.slice(0, 10), id: keyIdOf(k2), files: ['a.env', 'b.yml'] },
    ]);
  });

  it('sends at most 1000 keys a request', async () => {
    const many = Array.from({ length: 2500 }, () => generateApiKey().secret);
    const result = await run(['revoke', '--url', base], many.join('\n'), many);
    expect(result.status).toBe(0);
    expect(received.map((request) => request.credentials.length)).toEqual([1000, 1000, 500]);
    expect(received.flatMap((request) => request.credentials)).toEqual(many);
    expect(result.stderr).toContain('accepted 2500 keys in 3 requests');
  });

  it('on 429 stops, says when to retry and how many keys were accepted before; exit 3', async () => {
    respond = (_request, res) => {
      if (received.length === 1) return contract(_request, res);
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1800' }).end('{"error":"too many requests"}');
    };
    const many = Array.from({ length: 1500 }, () => generateApiKey().secret);
    const result = await run(['revoke', '--url', base], many.join(' '), many);
    expect(result.status).toBe(3);
    expect(received).toHaveLength(2);
    expect(result.stderr).toContain('answered 429 Too Many Requests: too many requests. Retry in 30 minutes (after ');
    expect(result.stderr).toContain('The first 1000 keys were accepted; the other 500 were not sent.');
  });

  it('reads a Retry-After date too', async () => {
    respond = (_request, res) => {
      res.writeHead(429, { 'retry-after': 'Wed, 21 Oct 2026 07:28:00 GMT' }).end();
    };
    const result = await run(['revoke', '--url', base], k1);
    expect(result.status).toBe(3);
    expect(result.stderr).toContain('answered 429 Too Many Requests. Retry after 2026-10-21T07:28:00.000Z.');
    expect(result.stderr).toContain('No key was revoked.');
  });

  it.each([
    [400, '{"error":"credentials must hold 1 to 1000 strings"}', 'answered 400 Bad Request: credentials must hold 1 to 1000 strings.'],
    [404, '{"error":"not found"}', 'Is this the base URL of a drops server that revokes by value'],
    [413, '{"error":"request body too large"}', 'answered 413 Payload Too Large: request body too large.'],
    [503, 'upstream down', 'answered 503 Service Unavailable. The server could not take the request now'],
  ])('reports a %i clearly and exits 3', async (status, body, message) => {
    respond = (_request, res) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(body);
    };
    const result = await run(['revoke', '--url', base], k1);
    expect(result.status).toBe(3);
    expect(result.stderr).toContain(message);
  });

  it('never prints a secret the server echoes in its error', async () => {
    respond = (request, res) => {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `bad entry ${request.credentials[0]}` }));
    };
    const result = await run(['revoke', '--url', base], k3);
    expect(result.status).toBe(3);
    expect(result.stderr).toContain('bad entry hp_[redacted]');
  });

  it('does not follow a redirect (it would send the keys elsewhere)', async () => {
    respond = (_request, res) => {
      res.writeHead(307, { location: `${base}/elsewhere` }).end();
    };
    const result = await run(['revoke', '--url', base], k1);
    expect(result.status).toBe(3);
    expect(received).toHaveLength(1);
    expect(result.stderr).toContain(`answered 307 Temporary Redirect to ${base}/elsewhere. Redirects are not followed`);
  });

  it('says when the server cannot be reached; exit 3', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await run(['revoke', '--url', `http://127.0.0.1:${port}`], k1);
    expect(result.status).toBe(3);
    expect(result.stderr).toContain('could not be reached (ECONNREFUSED)');
  });

  it('sends nothing and exits 1 when the input holds no key', async () => {
    const result = await run(['revoke', '--url', base], `hp_short and x${k1}\n`);
    expect(result.status).toBe(1);
    expect(received).toEqual([]);
    expect(result.stderr).toContain('no API key found in stdin');
  });

  it.each([
    [['revoke'], '--url <base URL> is required'],
    [['revoke', '--url', 'drops.example.com'], '--url must be an absolute URL'],
    [['revoke', '--url', 'http://drops.example.com'], '--url must be an https: URL (http: only for 127.0.0.0/8, localhost or [::1])'],
    [['revoke', '--url', 'https://user:pw@drops.example.com'], 'must not carry a user name or password'],
    [['revoke', '--url', 'https://drops.example.com/?x=1'], 'no query (?) or fragment (#)'],
    [['revoke', '--url', 'https://drops.example.com', 'missing.txt'], 'no such file: missing.txt'],
    [
      ['revoke', '--url', 'https://drops.example.com', '.'],
      '. is a directory: to find and revoke the keys under it, use drops-auth scan --revoke',
    ],
    [['revoke', '--url', 'https://drops.example.com', k4], 'never from arguments'],
    [['revoke', '--nope', '--url', 'https://drops.example.com'], 'Unknown option'],
  ])('refuses %j with exit 2, sending nothing', async (args, message) => {
    const result = await run(args, k1);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(message);
    expect(received).toEqual([]);
  });

  it('sends nothing when a named file cannot be read as text', async () => {
    await writeFile(join(tmp, 'blob.bin'), Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from(` ${k1} `)]));
    await writeFile(join(tmp, 'ok.txt'), k2);
    const result = await run(['revoke', '--url', base, 'ok.txt', 'blob.bin']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('blob.bin is a binary file');
    expect(received).toEqual([]);
  });
});

describe('drops-auth scan --revoke', () => {
  beforeAll(async () => {
    await mkdir(join(tmp, 'leaked', 'src'), { recursive: true });
    await writeFile(join(tmp, 'leaked', 'src', 'config.ts'), `export const key = '${k3}';\n`);
    await writeFile(join(tmp, 'leaked', 'ci.yml'), `env:\n  A: ${k4}\n  B: ${k3}\n`);
    await mkdir(join(tmp, 'clean'));
    await writeFile(join(tmp, 'clean', 'README.md'), 'nothing here\n');
  });

  it('prints the findings, then what it will revoke (prefix, id, files), then revokes; exit 1', async () => {
    const result = await run(['scan', '--revoke', base, 'leaked']);
    expect(result.status).toBe(1);
    expect(received).toEqual([{ path: '/credentials/revoke', contentType: 'application/json', credentials: [k4, k3] }]);
    expect(result.stdout.trim().split('\n')).toEqual([
      `${join('leaked', 'ci.yml')}:2:6  prefix ${k4.slice(0, 10)}  id ${keyIdOf(k4)}`,
      `${join('leaked', 'ci.yml')}:3:6  prefix ${k3.slice(0, 10)}  id ${keyIdOf(k3)}`,
      `${join('leaked', 'src', 'config.ts')}:1:21  prefix ${k3.slice(0, 10)}  id ${keyIdOf(k3)}`,
    ]);
    const plan =
      `found 3 API keys in 2 files. Revoking 2 distinct keys by value at ${base}/credentials/revoke:\n` +
      `${k4.slice(0, 10)}  id ${keyIdOf(k4)}  in ${join('leaked', 'ci.yml')}\n` +
      `${k3.slice(0, 10)}  id ${keyIdOf(k3)}  in ${join('leaked', 'ci.yml')}, ${join('leaked', 'src', 'config.ts')}\n`;
    expect(result.stderr).toContain(plan);
    expect(result.stderr.indexOf(plan)).toBeLessThan(result.stderr.indexOf('accepted 2 keys in 1 request'));
  });

  it('exits 3 when the server refuses, after the findings', async () => {
    respond = (_request, res) => {
      res.writeHead(429, { 'retry-after': '60' }).end();
    };
    const result = await run(['scan', '--revoke', base, 'leaked']);
    expect(result.status).toBe(3);
    expect(result.stdout).toContain(keyIdOf(k3));
    expect(result.stderr).toContain('Retry in 60 seconds');
  });

  it('sends nothing when nothing is found; exit 0', async () => {
    const result = await run(['scan', '--revoke', base, 'clean']);
    expect(result.status).toBe(0);
    expect(received).toEqual([]);
  });

  it('checks the base URL before scanning', async () => {
    const result = await run(['scan', '--revoke', 'http://drops.example.com', 'leaked']);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('--revoke must be an https: URL');
  });
});
