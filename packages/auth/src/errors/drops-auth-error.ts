/**
 * A JSON error body, the shape every drops-auth failure answers with.
 */
export interface ErrorBody {
  readonly error: string;
}

/**
 * The key of a class's brand: a `Symbol.for`, so it is the same symbol in every copy of
 * `@drops/auth` loaded in a process (the ESM and the CommonJS build, two installed versions).
 * @internal
 */
export const ERROR_BRAND: unique symbol = Symbol.for('@drops/auth.error-brand') as never;

/** The brands of an error instance: its class's and every ancestor's, nearest first. */
const INSTANCE_BRANDS = Symbol.for('@drops/auth.error-brands');

type BrandedClass = { readonly [ERROR_BRAND]?: string };

function brandsOf(value: unknown): readonly string[] | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const brands = (value as { [INSTANCE_BRANDS]?: unknown })[INSTANCE_BRANDS];
  return Array.isArray(brands) ? brands : undefined;
}

/** What a class's instances answer to: its brands (its own and every ancestor's, nearest first) and its `name`. */
interface ClassBrands {
  readonly brands: readonly string[];
  readonly name: string;
}

/** Where a class keeps its {@link ClassBrands}, worked out at its first instance. */
const CLASS_BRANDS = Symbol('class-brands');

/**
 * A class's brands, read once from the class chain and kept on its prototype (instances read
 * them from there, under {@link INSTANCE_BRANDS}): an error costs no prototype walk, no
 * allocation and no property definition of its own. The uniform 401 is built once per refused
 * request, an unknown-key flood included.
 */
function brandsOfClass(target: abstract new (...args: never[]) => unknown): ClassBrands {
  if (Object.hasOwn(target, CLASS_BRANDS)) return (target as { [CLASS_BRANDS]?: ClassBrands })[CLASS_BRANDS]!;
  const brands: string[] = [];
  for (let c: unknown = target; typeof c === 'function' && c !== Error; c = Object.getPrototypeOf(c)) {
    if (Object.hasOwn(c, ERROR_BRAND)) brands.push((c as BrandedClass)[ERROR_BRAND]!);
  }
  const found: ClassBrands = Object.freeze({
    brands: Object.freeze(brands),
    name: Object.hasOwn(target, ERROR_BRAND) ? brands[0]! : target.name,
  });
  Object.defineProperty(target.prototype, INSTANCE_BRANDS, { value: found.brands });
  Object.defineProperty(target, CLASS_BRANDS, { value: found });
  return found;
}

/**
 * Whether `value` is a drops-auth error from any copy of `@drops/auth` in the process: the ESM
 * and CommonJS builds each have their own classes, and `instanceof` (which this package makes
 * work across copies too) is not always available to the caller, e.g. in a type guard.
 *
 * @example
 * ```ts
 * import { isDropsAuthError } from '@drops/auth';
 *
 * function statusOf(error: unknown): number {
 *   return isDropsAuthError(error) ? error.status : 500;
 * }
 * ```
 */
export function isDropsAuthError(value: unknown): value is DropsAuthError {
  return brandsOf(value)?.includes('DropsAuthError') === true;
}

/**
 * The one error hierarchy of drops-auth. Every error knows the HTTP answer it stands for, so
 * adapters never build an auth response by hand: they send `status`, `headers` and `body`.
 *
 * Messages and bodies never contain a secret or an ID token.
 *
 * @example
 * ```ts
 * try {
 *   await authenticator.authenticate(headers);
 * } catch (err) {
 *   if (err instanceof DropsAuthError) {
 *     res.writeHead(err.status, err.headers).end(JSON.stringify(err.body));
 *   } else throw err;
 * }
 * ```
 */
export abstract class DropsAuthError extends Error {
  /** @internal */
  static readonly [ERROR_BRAND]: string = 'DropsAuthError';

  /**
   * `instanceof` by brand rather than by prototype, so an error thrown by the CommonJS copy of
   * `@drops/auth` is recognised by the ESM copy and the other way round. A subclass without a
   * brand of its own (an application's) falls back to the ordinary prototype check.
   */
  // biome-ignore-start lint/complexity/noThisInStatic: `this` is the class `instanceof` was asked about, a subclass included.
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (!Object.hasOwn(this, ERROR_BRAND)) return Function.prototype[Symbol.hasInstance].call(this, value);
    return brandsOf(value)?.includes((this as BrandedClass)[ERROR_BRAND]!) === true;
  }
  // biome-ignore-end lint/complexity/noThisInStatic: -

  /** A stable machine-readable code, e.g. `ERR_UNAUTHENTICATED`. */
  abstract readonly code: string;
  /** The HTTP status this error answers with. */
  abstract readonly status: number;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    // The brand, not `constructor.name`: a minifying bundler renames classes.
    this.name = brandsOfClass(new.target).name;
  }

  /** HTTP headers to send with the answer (always includes `content-type`). */
  get headers(): Record<string, string> {
    return { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };
  }

  /** The JSON body to send. */
  get body(): ErrorBody {
    return { error: this.message };
  }

  /** The body serialised, byte-for-byte what goes on the wire. */
  get bodyText(): string {
    return JSON.stringify(this.body);
  }
}
