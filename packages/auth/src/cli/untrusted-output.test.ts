/**
 * The built `drops-auth` prints text it did not write (scanned file names, a server's error
 * message and status line, arguments) with every control character a terminal acts on escaped:
 * a file name or a server cannot clear the screen, fake an "accepted" line or reorder what is
 * shown. Checked on the raw bytes the process wrote.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../api-key/generate-api-key.js';
import { keyIdOf } from '../api-key/key-id.js';
import { spawnCli, type CliRun } from './test-spawn-cli.js';

/** Clears the screen, homes the cursor, writes a fake success line, then hides what follows. */
const FAKE_LINE = '\x1b[2J\x1b[1;1Hdrops-auth: accepted 1 key\x1b[8m';
/** The same attack in the other encodings a terminal may act on: C1 CSI, DEL, bidi override, a line break. */
const OTHER_CONTROLS = '\u009b2J\x7f\u202egnp.exe\u2066\r\n\t';
const NAME = `${FAKE_LINE}${OTHER_CONTROLS}x.env`;

/** Any character a terminal acts on, other than the line breaks the CLI writes itself. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const secret = generateApiKey().secret;
let tmp: string;
let http: Server;
let httpBase: string;
let raw: TcpServer;
let rawBase: string;

/** No raw control byte (ESC, C1 as UTF-8, DEL, bidi marks) in what the CLI wrote, and never the secret. */
function expectTerminalSafe(result: CliRun): void {
  for (const bytes of [result.stdoutBytes, result.stderrBytes]) {
    expect(bytes.includes(0x1b)).toBe(false);
    expect(bytes.includes(0x7f)).toBe(false);
    expect(bytes.includes(0x9b)).toBe(false);
    const text = bytes.toString('utf8');
    expect(text).not.toMatch(CONTROL);
    expect(text).not.toContain(secret);
  }
}

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'drops-auth-untrusted-'));
  await mkdir(join(tmp, 'dir'));
  await writeFile(join(tmp, 'dir', NAME), `DROPS_API_KEY=${secret}\n`);
  // A server whose error message carries the same sequences.
  http = createHttpServer((req, res) => {
    req.resume().on('end', () => {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `${FAKE_LINE}${OTHER_CONTROLS}` }));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  httpBase = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  // One that puts them in its status line and its Location header (which node:http refuses to
  // write): fetch keeps them, a header's bytes as Latin-1, so the bidi override's UTF-8 is C1 there.
  raw = createTcpServer((socket) => {
    socket.once('data', () => {
      socket.end(
        Buffer.concat([
          Buffer.from('HTTP/1.1 307 Moved\x1b[2J\x1b[1;1HOK\r\n', 'latin1'),
          Buffer.from('Location: https://evil.example/\x9b2J', 'latin1'),
          Buffer.from('\u202e\u009b1m\r\n', 'utf8'),
          Buffer.from('Content-Length: 0\r\nConnection: close\r\n\r\n'),
        ]),
      );
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  rawBase = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
});

afterAll(async () => {
  http?.closeAllConnections();
  await new Promise((resolve) => http?.close(resolve));
  await new Promise((resolve) => raw?.close(resolve));
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('drops-auth prints untrusted text with its control characters escaped', () => {
  it('scan: a file name with escape sequences, bidi overrides and line breaks', async () => {
    const result = await spawnCli(['scan', 'dir'], { cwd: tmp });
    expect(result.status).toBe(1);
    expectTerminalSafe(result);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    expect(result.stdout).toContain('\\u001b[2J\\u001b[1;1Hdrops-auth: accepted 1 key\\u001b[8m');
    expect(result.stdout).toContain(
      `\\u202egnp.exe\\u2066\\u000d\\u000a\\u0009x.env:1:15  prefix ${secret.slice(0, 10)}  id ${keyIdOf(secret)}`,
    );
  });

  it('scan --json: the same name, escaped as JSON escapes it, so it parses back to the real name', async () => {
    const result = await spawnCli(['scan', '--json', 'dir'], { cwd: tmp });
    expectTerminalSafe(result);
    expect(JSON.parse(result.stdout)).toMatchObject({ file: join('dir', NAME), id: keyIdOf(secret) });
  });

  it('scan --revoke and revoke: the file name in the plan, and a server error message with escape sequences', async () => {
    const scanned = await spawnCli(['scan', '--revoke', httpBase, 'dir'], { cwd: tmp });
    expect(scanned.status).toBe(3);
    expectTerminalSafe(scanned);
    expect(scanned.stderr).toContain('answered 400 Bad Request: \\u001b[2J\\u001b[1;1Hdrops-auth: accepted 1 key\\u001b[8m\\u009b2J');
    const revoked = await spawnCli(['revoke', '--json', '--url', httpBase, join('dir', NAME)], { cwd: tmp });
    expect(revoked.status).toBe(3);
    expectTerminalSafe(revoked);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ files: [join('dir', NAME)] });
  });

  it("a server's status line and Location header", async () => {
    const result = await spawnCli(['revoke', '--url', rawBase], { cwd: tmp, input: secret });
    expect(result.stderr).toContain('answered 307 Moved\\u001b[2J\\u001b[1;1HOK to https://evil.example/\\u009b2J');
    expect(result.status).toBe(3);
    expectTerminalSafe(result);
  });

  it('arguments echoed in usage errors', async () => {
    for (const args of [[FAKE_LINE], ['scan', `missing${FAKE_LINE}`], ['scan', `--${FAKE_LINE}`, '.']]) {
      const result = await spawnCli(args, { cwd: tmp });
      expect(result.status).toBe(2);
      expectTerminalSafe(result);
    }
  });
});
