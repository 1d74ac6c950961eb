import { describe, expect, it } from 'vitest';
import type { Principal } from '../authenticator/principal.js';
import { NotFoundError } from '../errors/not-found-error.js';
import { answeredAs, UnauthenticatedError } from '../errors/unauthenticated-error.js';
import { parseUnauthenticated } from '../errors/unauthenticated-answer.js';
import { jsonAnswer } from '../leaked-keys/route-answer.js';
import { answerResponse } from './answer-response.js';
import { canonicalHeaders } from './canonical-headers.js';
import { writeNodeAnswer, type NodeResponseLike } from './write-node-answer.js';

const soon = new Date(Date.now() + 3 * 86_400_000);
const expiring: Principal = { accountId: 'acct_1', credential: 'api_key', keyId: 'a'.repeat(64), expiresAt: soon };
const lasting: Principal = { accountId: 'acct_1', credential: 'api_key', keyId: 'b'.repeat(64) };

/** A Node response that records what is written to it, in order. */
function recordingResponse(): NodeResponseLike & { lines: Array<[string, string]>; body: string | undefined } {
  const lines: Array<[string, string]> = [];
  return {
    statusCode: 200,
    lines,
    body: undefined,
    removeHeader(name) {
      const at = lines.findIndex(([n]) => n === name);
      if (at !== -1) lines.splice(at, 1);
    },
    setHeader(name, value) {
      lines.push([name, value]);
    },
    end(body) {
      this.body = body;
    },
  };
}

describe('the answer writers and the expiry warning', () => {
  it('add Drops-Key-Expiration in the canonical order, to a success and an error alike, for an expiring key only', () => {
    const ok = jsonAnswer(200, { keys: [] });
    const names = canonicalHeaders(ok, expiring).map(([name]) => name);
    expect(names).toEqual([...names].sort());
    expect(canonicalHeaders(ok, expiring)).toContainEqual(['drops-key-expiration', soon.toISOString()]);
    expect(canonicalHeaders(new NotFoundError('not found'), expiring)).toContainEqual(['drops-key-expiration', soon.toISOString()]);
    for (const principal of [lasting, null, undefined]) {
      expect(canonicalHeaders(ok, principal).map(([name]) => name)).not.toContain('drops-key-expiration');
    }
  });

  it('writeNodeAnswer and answerResponse carry it when given the principal, and replace a copy set earlier', () => {
    const res = recordingResponse();
    res.setHeader('drops-key-expiration', 'stale');
    writeNodeAnswer(res, new NotFoundError('not found'), expiring);
    expect(res.statusCode).toBe(404);
    expect(res.lines.filter(([name]) => name === 'drops-key-expiration')).toEqual([['drops-key-expiration', soon.toISOString()]]);
    expect(answerResponse(new NotFoundError('not found'), 'GET', expiring).headers.get('drops-key-expiration')).toBe(soon.toISOString());
    expect(answerResponse(new NotFoundError('not found'), 'GET', lasting).headers.get('drops-key-expiration')).toBeNull();
  });

  it('leave the uniform 401 the same bytes: no principal, no warning', () => {
    const plain = recordingResponse();
    writeNodeAnswer(plain, new UnauthenticatedError('missing'));
    expect(plain.lines.map(([name]) => name)).toEqual(['cache-control', 'content-length', 'content-type', 'www-authenticate']);
  });

  it("give each uniform 401 its own realm's lines, and a fresh list each time: a caller's change never reaches the next answer", () => {
    const acme = parseUnauthenticated({ realm: 'acme', message: 'sign in at acme.example' }, 'test');
    const first = canonicalHeaders(new UnauthenticatedError('unknown_key'));
    first[0]![1] = 'public';
    first.push(['x-extra', '1']);
    expect(canonicalHeaders(new UnauthenticatedError('unknown_key'))).toEqual([
      ['cache-control', 'no-store'],
      ['content-length', '76'],
      ['content-type', 'application/json; charset=utf-8'],
      ['www-authenticate', 'Bearer realm="drops"'],
    ]);
    expect(canonicalHeaders(answeredAs(new UnauthenticatedError('unknown_key'), acme))).toContainEqual([
      'www-authenticate',
      'Bearer realm="acme"',
    ]);
    expect(canonicalHeaders(answeredAs(new UnauthenticatedError('unknown_key'), acme))).toContainEqual(['content-length', '35']);
  });
});
