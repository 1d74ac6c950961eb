import type { IncomingHttpHeaders } from 'node:http';
import type { Request, Response } from 'express';
import { pino, type DestinationStream, type Logger } from 'pino';
import { jsonString, lastJsonString } from './json-string.js';
import { scrubSecrets } from './logger.js';

/** Request headers worth logging; any other header (where a misplaced secret might sit) is left out. */
const LOGGED_HEADERS = ['host', 'user-agent', 'content-type', 'content-length', 'content-encoding', 'x-forwarded-for'] as const;

/** Writes the access line of one finished (or aborted) request. */
export type AccessLog = (req: Request, res: Response, route: string | null, durationMs: number) => void;

/** The process logger's pieces an access line is made of; pino's own, so the line is the one pino would write. */
interface PinoInternals {
  [key: symbol]: unknown;
}

/** `.001` to `.999` (and `''` for none): the fractions of a millisecond as a number prints them. */
const FRACTIONS = Array.from({ length: 1000 }, (_, micros) => (micros === 0 ? '' : String(micros / 1000).slice(1)));

/**
 * `String(Math.round(ms * 1000) / 1000)`, the duration as pino writes the rounded number, put
 * together from integers: printing a fraction is a shortest-digits search (about 160 ns here).
 * @internal exported for its test
 */
export function millisecondsJson(ms: number): string {
  const micros = Math.round(ms * 1000);
  if (!(micros >= 0 && micros < 2 ** 31)) return String(micros / 1000);
  return `${(micros / 1000) | 0}${FRACTIONS[micros % 1000]}`;
}

/** The JSON of a client's value with any credential in it redacted, keeping the last answer (json-string.ts). */
const scrubbedJson = (): ((value: string) => string) => lastJsonString(scrubSecrets);

/** `{"host":"…","authorization":"[redacted]"}`: a safe few headers, each scrubbed, as JSON. */
function headersJsonOf(): (headers: IncomingHttpHeaders) => string {
  const names = LOGGED_HEADERS.map((name) => ({ name, key: JSON.stringify(name), json: scrubbedJson() }));
  return (headers) => {
    let json = '';
    for (const { name, key, json: valueJson } of names) {
      const value = headers[name];
      if (value === undefined) continue;
      // A client may paste a credential into any header (a user agent, a forwarded-for); scrub them all.
      json += `${json === '' ? '{' : ','}${key}:${typeof value === 'string' ? valueJson(value) : JSON.stringify(value)}`;
    }
    if (headers.authorization !== undefined) json += `${json === '' ? '{' : ','}"authorization":"[redacted]"`;
    return json === '' ? '{}' : `${json}}`;
  };
}

/**
 * The access log: one JSON line per request, or `null` when the logger is above `info`.
 *
 * The line is the one `logger.info(line, 'request completed')` would write (pino's level, time
 * and bindings first, then `req` {id, method, url (scrubbed), route, headers (a safe few,
 * scrubbed; `authorization` only as `[redacted]`), remoteAddress, clientAddress (the address the
 * per-client limits used: `req.ip`, after the trusted proxies)}, `res.statusCode`,
 * `responseTime` (ms), `credential` and `keyId` when authenticated, `auth` (why a credential
 * was refused, server side only, from `res.locals.authFailure`), then the message), but it is
 * serialized here and handed to the logger's destination directly: through pino, building and
 * walking the nested object cost about three times as much (bench/METHOD.md). Every value that
 * comes from the client is serialized as `JSON.stringify` would (json-string.ts). 5xx lines are at `error`, aborted
 * requests at `warn`. The redaction paths of the process logger are not needed: nothing secret
 * is ever put in the line.
 */
export function createAccessLog(logger: Logger): AccessLog | null {
  if (!logger.isLevelEnabled('info')) return null;
  const internals = logger as unknown as PinoInternals;
  const destination = internals[pino.symbols.streamSym] as DestinationStream;
  const time = internals[pino.symbols.timeSym] as () => string;
  const bindings = internals[pino.symbols.chindingsSym] as string;
  const messageKey = JSON.stringify(internals[pino.symbols.messageKeySym] as string);
  const { values } = logger.levels;
  const ending = (msg: string): string => `,${messageKey}:${JSON.stringify(msg)}}\n`;
  const completed = { level: `{"level":${values['info']}`, end: ending('request completed') };
  const errored = { level: `{"level":${values['error']}`, end: ending('request errored') };
  const aborted = { level: `{"level":${values['warn']}`, end: ending('request aborted') };
  const headersJson = headersJsonOf();
  const urlJson = scrubbedJson();
  // Values a client or an app repeats request after request; the request id is new each time.
  const methodJson = lastJsonString();
  const routeJson = lastJsonString();
  const remoteJson = lastJsonString();
  const clientJson = lastJsonString();
  const credentialJson = lastJsonString();
  const keyIdJson = lastJsonString();

  return (req, res, route, durationMs) => {
    const status = res.statusCode;
    const kind = !res.writableFinished ? aborted : status >= 500 ? errored : completed;
    let line =
      `${kind.level}${time()}${bindings},"req":{"id":${jsonString(req.id)},"method":${methodJson(req.method)}` +
      `,"url":${urlJson(req.originalUrl ?? req.url)},"route":${route === null ? 'null' : routeJson(route)}` +
      `,"headers":${headersJson(req.headers)}`;
    const remoteAddress = req.socket.remoteAddress;
    if (remoteAddress !== undefined) line += `,"remoteAddress":${remoteJson(remoteAddress)}`;
    // The address every per-client limit counted (the trusted proxies applied), not only the socket's.
    // With no proxy trusted (Express's default, `TRUST_PROXY=false`) that is the socket's: `req.ip`
    // would parse `X-Forwarded-For` only to throw it away.
    const clientAddress = req.app?.settings['trust proxy'] === false ? remoteAddress : req.ip;
    if (clientAddress !== undefined) line += `,"clientAddress":${clientJson(clientAddress)}`;
    line += `},"res":{"statusCode":${status}},"responseTime":${millisecondsJson(durationMs)}`;
    const principal = req.auth;
    if (principal) {
      line += `,"credential":${credentialJson(principal.credential)}`;
      if (principal.keyId !== undefined) line += `,"keyId":${keyIdJson(principal.keyId)}`;
    }
    const failure: unknown = res.locals['authFailure'];
    if (failure !== undefined) line += `,"auth":${JSON.stringify(failure)}`;
    destination.write(line + kind.end);
  };
}
