import type { RequestHandler } from 'express';

const AUTHORIZATION = 'authorization';

/**
 * Node keeps only the first of several `Authorization` headers in `req.headers` (it discards
 * duplicates of that header), so a request carrying a valid credential and a second value would
 * authenticate with the first: "take the first", which a proxy that reads the last one disagrees
 * with. This puts every value back, as a list, so the authenticator sees several values and
 * answers the uniform 401 (a list is malformed), whichever comes first.
 */
export function exposeRepeatedAuthorization(): RequestHandler {
  return (req, _res, next) => {
    const raw = req.rawHeaders;
    let values: string[] | undefined;
    let first: string | undefined;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!;
      if (name.length !== AUTHORIZATION.length || name.toLowerCase() !== AUTHORIZATION) continue;
      if (first === undefined) first = raw[i + 1]!;
      else (values ??= [first]).push(raw[i + 1]!);
    }
    if (values !== undefined) (req.headers as Record<string, unknown>)[AUTHORIZATION] = values;
    next();
  };
}
