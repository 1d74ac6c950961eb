import type { CliIo } from './cli-io.js';
import { plural } from './plural.js';
import { printable } from './printable.js';

/** Most secrets `POST /credentials/revoke` takes in one request. */
export const REVOKE_BATCH_SIZE = 1000;

/** A request that has not answered by then is reported as failed (sending again is harmless). */
const REQUEST_TIMEOUT_MS = 30_000;

/** Longest error body read from a refusing server, to show its `{error}`. */
const MAX_ERROR_BODY_CHARS = 2048;

function minutes(seconds: number): string {
  if (seconds < 120) return plural(seconds, 'second');
  if (seconds < 7200) return plural(Math.ceil(seconds / 60), 'minute');
  return plural(Math.ceil(seconds / 3600), 'hour');
}

/** When to retry after a 429, from `Retry-After` (delay in seconds, or an HTTP date). */
export function retryAdvice(retryAfter: string | null, now: Date = new Date()): string {
  const value = retryAfter?.trim() ?? '';
  if (/^\d+$/.test(value)) {
    const seconds = Number(value);
    return `Retry in ${minutes(seconds)} (after ${new Date(now.getTime() + seconds * 1000).toISOString()}).`;
  }
  const at = Date.parse(value);
  if (value !== '' && !Number.isNaN(at)) return `Retry after ${new Date(at).toISOString()}.`;
  return 'Retry later.';
}

async function errorOf(response: Response): Promise<string | null> {
  try {
    const text = (await response.text()).slice(0, MAX_ERROR_BODY_CHARS);
    const error = (JSON.parse(text) as { error?: unknown }).error;
    return typeof error === 'string' ? error : null;
  } catch {
    return null;
  }
}

/** Why a request did not get a 2xx, in words; `null` when it did. */
async function refusalOf(response: Response): Promise<string | null> {
  const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  if (response.status >= 200 && response.status < 300) {
    await response.body?.cancel();
    return null;
  }
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    const location = response.headers.get('location');
    return (
      `answered ${status}${location ? ` to ${location}` : ''}. Redirects are not followed (they would send the ` +
      'keys to another address): if you trust the new address, pass it as the base URL.'
    );
  }
  const error = await errorOf(response);
  const said = `answered ${status}${error ? `: ${error}` : ''}.`;
  if (response.status === 429) return `${said} ${retryAdvice(response.headers.get('retry-after'))}`;
  if (response.status === 404 || response.status === 405) {
    return `${said} Is this the base URL of a drops server that revokes by value (POST /credentials/revoke)?`;
  }
  if (response.status >= 500) return `${said} The server could not take the request now; try again later.`;
  return said;
}

function networkFailure(error: unknown): string {
  if ((error as { name?: unknown }).name === 'TimeoutError') return `did not answer within ${REQUEST_TIMEOUT_MS / 1000} seconds.`;
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const detail = typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : 'network error';
  return `could not be reached (${detail}).`;
}

/**
 * Sends `secrets` to `endpoint` (`POST <base>/credentials/revoke`, `{"credentials": [...]}`) in
 * batches of at most {@link REVOKE_BATCH_SIZE}, one after another, stopping at the first that is
 * not accepted. Writes the outcome on stderr (never a secret: the server's own words are redacted
 * too, and their control characters escaped) and resolves whether every batch was accepted.
 */
export async function sendRevocations(endpoint: URL, secrets: readonly string[], io: CliIo, command: string): Promise<boolean> {
  let sent = 0;
  let requests = 0;
  while (sent < secrets.length) {
    const batch = secrets.slice(sent, sent + REVOKE_BATCH_SIZE);
    let failure: string | null;
    try {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ credentials: batch }),
        redirect: 'manual',
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      failure = await refusalOf(response);
    } catch (error) {
      failure = networkFailure(error);
    }
    if (failure !== null) {
      const done =
        sent === 0
          ? 'No key was revoked.'
          : `The first ${plural(sent, 'key')} were accepted; the other ${secrets.length - sent} were not sent.`;
      io.stderr.write(
        `drops-auth ${command}: ${endpoint.href} ${printable(failure)}\n${done} Sending a key again is harmless: run the same command again.\n`,
      );
      return false;
    }
    sent += batch.length;
    requests++;
  }
  io.stderr.write(
    `drops-auth ${command}: ${endpoint.href} accepted ${plural(sent, 'key')} in ${plural(requests, 'request')}. ` +
      'Each one that was an active key is revoked now; the server never says which keys existed.\n',
  );
  return true;
}
