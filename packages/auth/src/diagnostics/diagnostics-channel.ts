/** What the core needs of a `node:diagnostics_channel` channel. */
export interface PublishingChannel<Message> {
  /** `false` while nobody listens: publishers check it before building a message. */
  readonly hasSubscribers: boolean;
  publish(message: Message): void;
}

/** The part of the `node:diagnostics_channel` module the core uses. */
export interface DiagnosticsChannelModule {
  channel(name: string): { readonly hasSubscribers: boolean; publish(message: unknown): void };
}

type GetBuiltinModule = (id: string) => unknown;

/** Nobody can subscribe, so nothing is ever built or sent. */
const SILENT: PublishingChannel<never> = Object.freeze({ hasSubscribers: false, publish(): void {} });

/**
 * Finds `node:diagnostics_channel` without importing it: `process.getBuiltinModule` (Node
 * 20.16+ / 22.3+, Bun, Deno) hands over the built-in at run time, so no bundler ever sees a
 * `node:` import and the core still bundles for browsers and Cloudflare workerd without
 * `nodejs_compat`. Where there is no such function (a browser, workerd, Node before 20.16),
 * there is nothing to subscribe with, and every channel is silent.
 */
export function loadDiagnosticsChannel(
  processLike: { getBuiltinModule?: GetBuiltinModule } | null | undefined = (
    globalThis as { process?: { getBuiltinModule?: GetBuiltinModule } }
  ).process,
): DiagnosticsChannelModule | undefined {
  try {
    if (typeof processLike?.getBuiltinModule !== 'function') return undefined;
    const found = processLike.getBuiltinModule('node:diagnostics_channel') as Partial<DiagnosticsChannelModule> | undefined;
    return typeof found?.channel === 'function' ? (found as DiagnosticsChannelModule) : undefined;
  } catch {
    return undefined;
  }
}

const diagnosticsChannel = loadDiagnosticsChannel();

/**
 * The named channel (the same object every `diagnostics_channel.channel(name)` call in the
 * process returns), or a silent stand-in where the runtime has none.
 */
export function channelOf<Message>(
  name: string,
  module: DiagnosticsChannelModule | undefined = diagnosticsChannel,
): PublishingChannel<Message> {
  return module === undefined ? SILENT : (module.channel(name) as PublishingChannel<Message>);
}
