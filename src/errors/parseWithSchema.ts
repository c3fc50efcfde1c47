import type { z } from 'zod';
import { InvalidRequestBodyError } from './requestErrors';

/** Validates a body or query against a schema; a mismatch is a 400 naming every bad field. */
export function parseWithSchema<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const message = result.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; ');
  throw new InvalidRequestBodyError(`Invalid request: ${message}`);
}
