import {
  DropsAuthError,
  InvalidRequestError,
  errorResponse,
  type Authenticator,
  type KeyManager,
  type Principal,
} from '@drops/auth';
import { Hono, type Context, type MiddlewareHandler } from 'hono';

type Env = { Variables: { principal: Principal } };

async function jsonBody(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new InvalidRequestError('request body must be JSON, e.g. {"name": "ci-main"}');
  }
}

/** Answers the core's errors (400, 401, 404, 503) with their own status, headers and bytes. */
function answer(handler: (c: Context<Env>) => Promise<Response>) {
  return async (c: Context<Env>): Promise<Response> => {
    try {
      return await handler(c);
    } catch (error) {
      if (error instanceof DropsAuthError) return errorResponse(error);
      throw error;
    }
  };
}

/**
 * `POST /keys` (ID token only), `GET /keys`, `DELETE /keys/:id` over the core's key manager.
 * Authentication runs for every method and path under `/keys` before routing, so an
 * unauthenticated caller gets the uniform 401, never a 404 or 405.
 */
export function keysRoutes(authenticator: Authenticator, keys: KeyManager): Hono<Env> {
  const app = new Hono<Env>();

  const authenticate: MiddlewareHandler<Env> = async (c, next) => {
    try {
      c.set('principal', await authenticator.authenticate(c.req.raw.headers));
    } catch (error) {
      if (error instanceof DropsAuthError) return errorResponse(error);
      throw error;
    }
    await next();
  };
  app.use('/keys', authenticate);
  app.use('/keys/*', authenticate);

  app.post(
    '/keys',
    answer(async (c) => {
      const minted = await keys.mint(c.get('principal'), await jsonBody(c.req.raw));
      return c.json(minted, 201, { 'cache-control': 'no-store' });
    }),
  );
  app.get(
    '/keys',
    answer(async (c) => c.json({ keys: await keys.list(c.get('principal')) }, 200, { 'cache-control': 'no-store' })),
  );
  app.delete(
    '/keys/:id',
    answer(async (c) => {
      await keys.revoke(c.get('principal'), c.req.param('id') ?? '');
      return c.body(null, 204);
    }),
  );

  app.all('/keys', (c) => c.json({ error: 'method not allowed: use GET or POST' }, 405, { allow: 'GET, POST' }));
  app.all('/keys/:id', (c) => c.json({ error: 'method not allowed: use DELETE' }, 405, { allow: 'DELETE' }));
  app.all('/keys/*', (c) => c.json({ error: 'not found' }, 404));
  return app;
}
