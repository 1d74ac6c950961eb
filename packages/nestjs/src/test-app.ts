import type { INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';

/** The HTTP platforms this package's suites run on. */
export const PLATFORMS = ['express', 'fastify'] as const;
export type Platform = (typeof PLATFORMS)[number];

/** A Nest app listening on 127.0.0.1 at a random port, for tests over real HTTP. */
export interface TestServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Creates `module` on `platform` and listens on 127.0.0.1, port 0. Test helper; not exported from the package. */
export async function listenNest(module: Type<unknown>, platform: Platform): Promise<TestServer> {
  const adapter = platform === 'express' ? new ExpressAdapter() : new FastifyAdapter();
  const app: INestApplication = await NestFactory.create(module, adapter, { logger: false, abortOnError: false });
  await app.listen(0, '127.0.0.1');
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1').replace('localhost', '127.0.0.1');
  return {
    url,
    async close() {
      const server = app.getHttpServer() as { closeAllConnections?: () => void };
      server.closeAllConnections?.();
      await app.close();
    },
  };
}
