import type { z } from 'zod';
import { InvalidRequestBodyError } from './requestErrors';

/**
 * Validates a body, query string or path against a schema; a mismatch is a 400 naming every bad
 * field, and where it is (`query: …` for an unknown query parameter, never "body").
 */
export function parseWithSchema<T extends z.ZodType>(schema: T, value: unknown, where: 'body' | 'query' | 'path' = 'body'): z.infer<T> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const prefix = where === 'body' ? '' : `${where} `;
  const message = result.error.issues.map((issue) => `${prefix}${issue.path.join('.') || (where === 'body' ? 'body' : 'parameters')}: ${issue.message}`).join('; ');
  throw new InvalidRequestBodyError(`Invalid request: ${message}`);
}
