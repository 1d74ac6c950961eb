import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

async function run(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io = {
    stdin: Readable.from([]),
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  };
  const status = await runCli(args, io);
  return { status, stdout, stderr };
}

describe('drops-auth sign-out-everywhere', () => {
  it('prints the command to run with an ID token, and sends nothing', async () => {
    expect(await run(['sign-out-everywhere', '--url', 'https://drops.example.com'])).toEqual({
      status: 0,
      stdout: `curl --fail-with-body -X DELETE -H "Authorization: Bearer $ID_TOKEN" 'https://drops.example.com/sessions'\n`,
      stderr: '',
    });
  });

  it('refuses a plain-http URL off loopback, and arguments (a token does not belong in shell history)', async () => {
    expect((await run(['sign-out-everywhere', '--url', 'http://drops.example.com'])).status).toBe(2);
    const withToken = await run(['sign-out-everywhere', '--url', 'https://drops.example.com', 'eyJhbGciOi.x.y']);
    expect(withToken.status).toBe(2);
    expect(withToken.stderr).not.toContain('eyJhbGciOi');
  });

  it('is listed in the main help, with its own', async () => {
    expect((await run(['--help'])).stdout).toContain('sign-out-everywhere');
    expect((await run(['sign-out-everywhere', '--help'])).stdout).toContain('does not end the sign-in at your identity provider');
  });
});
