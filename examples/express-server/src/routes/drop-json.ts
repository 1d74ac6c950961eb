import type { Request } from 'express';
import type { Config } from '../config.js';
import type { DropRecord } from '../db/drops-repository.js';

/**
 * The origin drop URLs are built on: `config.dropsOrigin` (where drop content is served), else
 * `config.publicUrl`, else the one the request was made to.
 */
export function baseUrlOf(req: Request, config: Pick<Config, 'publicUrl' | 'dropsOrigin'>): string {
  return config.dropsOrigin?.origin ?? config.publicUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}

/** The `201` body of `POST /deploy`. */
export function deployedJson(drop: DropRecord, baseUrl: string): Record<string, unknown> {
  return {
    slug: drop.slug,
    url: `${baseUrl}/d/${drop.slug}`,
    owner: drop.owner,
    createdAt: drop.createdAt.toISOString(),
    expiresAt: drop.expiresAt === null ? null : drop.expiresAt.toISOString(),
  };
}

/** A drop in listings and append answers. */
export function dropJson(drop: DropRecord, baseUrl: string): Record<string, unknown> {
  return {
    ...deployedJson(drop, baseUrl),
    updatedAt: drop.updatedAt.toISOString(),
    size: drop.size,
    contentType: drop.contentType,
  };
}
