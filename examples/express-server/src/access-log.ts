import type { IncomingHttpHeaders } from 'node:http';
import type { Request, Response } from 'express';
import { pino, type DestinationStream, type Logger } from 'pino';
import { scrubSecrets } from './logger.js';

/** Request headers worth logging; any other header (where a misplaced secret might sit) is left out. */
const LOGGED_HEADERS = ['host', 'user-agent', 'content-type', 'content-length', 'content-encoding', 'x-forwarded-for'] as const;

/** Writes the access line of one finished (or aborted) request. */
export type AccessLog = (req: Request, res: Response, route: string | null, durationMs: number) => void;

/** The process logger's pieces an access line is made of; pino's own, so the line is the one pino would write. */
interface PinoInternals {
  [key: symbol]: unknown;
}

const round = (ms: number): number => Math.round(ms * 1000) / 1000;

/**
 * `JSON.stringify(scrubSecrets(value))`, keeping the last answer: clients send the same host, user
 * agent and path request after request, and a string compare is cheaper than the scrub's regular
 * expression and the serialization.
 */
function scrubbedJson(): (value: string) => string {
  let last: string | undefined;
  let lastJson = '';
  return (value) => {
    if (value !== last) {
      lastJson = JSON.stringify(scrubSecrets(value));
      last = value;
    }
    return lastJson;
  };
}

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
 * comes from the client goes through `JSON.stringify`. 5xx lines are at `error`, aborted
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

  return (req, res, route, durationMs) => {
    const status = res.statusCode;
    const kind = !res.writableFinished ? aborted : status >= 500 ? errored : completed;
    let line =
      `${kind.level}${time()}${bindings},"req":{"id":${JSON.stringify(req.id)},"method":${JSON.stringify(req.method)}` +
      `,"url":${urlJson(req.originalUrl ?? req.url)},"route":${route === null ? 'null' : JSON.stringify(route)}` +
      `,"headers":${headersJson(req.headers)}`;
    const remoteAddress = req.socket.remoteAddress;
    if (remoteAddress !== undefined) line += `,"remoteAddress":${JSON.stringify(remoteAddress)}`;
    // The address every per-client limit counted (the trusted proxies applied), not only the socket's.
    // With no proxy trusted (Express's default, `TRUST_PROXY=false`) that is the socket's: `req.ip`
    // would parse `X-Forwarded-For` only to throw it away.
    const clientAddress = req.app?.settings['trust proxy'] === false ? remoteAddress : req.ip;
    if (clientAddress !== undefined) line += `,"clientAddress":${JSON.stringify(clientAddress)}`;
    line += `},"res":{"statusCode":${status}},"responseTime":${round(durationMs)}`;
    const principal = req.auth;
    if (principal) {
      line += `,"credential":${JSON.stringify(principal.credential)}`;
      if (principal.keyId !== undefined) line += `,"keyId":${JSON.stringify(principal.keyId)}`;
    }
    const failure: unknown = res.locals['authFailure'];
    if (failure !== undefined) line += `,"auth":${JSON.stringify(failure)}`;
    destination.write(line + kind.end);
  };
}
