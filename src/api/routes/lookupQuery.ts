import { z } from 'zod';

/** A chain id in a query string: a positive decimal integer. */
export const QueryChainIdSchema = z
  .string()
  .regex(/^[1-9][0-9]{0,15}$/, 'expected a chain id (a positive integer)')
  .transform(Number);

/** An address or other short token in a query string. */
export const QueryTextSchema = z.string().min(1).max(200);
