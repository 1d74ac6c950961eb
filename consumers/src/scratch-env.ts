/**
 * The environment a scratch project's processes run in: the test's own, without `NODE_PATH`. pnpm
 * sets `NODE_PATH` to the workspace's modules for the scripts it runs (vitest among them), and a
 * scratch app that inherited it would resolve a package it never installed from the workspace
 * (a NestJS 11 app once loaded the workspace's NestJS 12 Fastify adapter), not as a user's app would.
 */
export function scratchEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const { NODE_PATH: _workspaceModules, ...env } = process.env;
  return { ...env, ...extra };
}
