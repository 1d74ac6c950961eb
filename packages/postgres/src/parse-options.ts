import type { z } from 'zod';

/**
 * Parses a factory's options with its zod schema, once, when the factory is called: a bad option
 * is a `TypeError` naming the factory and every problem, never a surprise on the first query.
 * @internal
 */
export function parseOptions<S extends z.ZodType>(where: string, schema: S, options: unknown): z.output<S> {
  const parsed = schema.safeParse(options);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message));
  throw new TypeError(`${where}: ${problems.join('; ')}`);
}
