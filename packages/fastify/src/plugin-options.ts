/** The options `register()` hands every plugin for Fastify itself, not for the plugin. */
const FASTIFY_REGISTER_OPTIONS = new Set(['prefix', 'logLevel', 'logSerializers']);

/**
 * A plugin's own options: what `app.register(plugin, options)` was given, less Fastify's own
 * (`prefix`, `logLevel`, `logSerializers`). The route core then checks them (an unknown one is a
 * `TypeError`).
 * @internal
 */
export function pluginOptions<T extends object>(options: T | undefined): T | undefined {
  if (options === undefined || options === null || typeof options !== 'object') return options;
  const own = Object.fromEntries(Object.entries(options).filter(([name]) => !FASTIFY_REGISTER_OPTIONS.has(name)));
  return (Object.keys(own).length === 0 ? undefined : own) as T | undefined;
}
