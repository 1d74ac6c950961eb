import type { z } from 'zod';

/** The option names of an object schema, to list beside an unknown one. */
function knownOptionsOf(schema: z.ZodType): string[] {
  const shape = (schema as { shape?: unknown }).shape;
  return typeof shape === 'object' && shape !== null ? Object.keys(shape) : [];
}

function describeIssue(issue: z.core.$ZodIssue, schema: z.ZodType): string {
  if (issue.code === 'unrecognized_keys') {
    // A misspelt option would otherwise be dropped without a word: name it, and what is known.
    const names = issue.keys.map((k) => `"${k}"`).join(', ');
    const known = knownOptionsOf(schema);
    const message = `unknown option${issue.keys.length > 1 ? 's' : ''} ${names}`;
    return known.length > 0 ? `${message} (known options: ${known.join(', ')})` : message;
  }
  return issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
}

/**
 * Parses a factory's options with its zod schema, once, when the factory is called: a bad option
 * (or an unknown one, with a strict object schema) is a `TypeError` naming the factory and every
 * problem, never a surprise on the first query.
 * @internal
 */
export function parseOptions<S extends z.ZodType>(where: string, schema: S, options: unknown): z.output<S> {
  const parsed = schema.safeParse(options);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => describeIssue(i, schema));
  throw new TypeError(`${where}: ${problems.join('; ')}`);
}
