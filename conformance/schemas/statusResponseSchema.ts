import { z } from 'zod';
import { statusResponseSchema as strictStatusResponseSchema } from './statusSchema';

/** SPEC §2.4 `status`: the §3 statuses, and `fallback`, which §2.4 and §3 refer to without a meaning. */
export const requestStatus = strictStatusResponseSchema.shape.status;

/**
 * SPEC §2.4 as the lifecycle checks read it while following a request: every field of the table,
 * but failReason and refundFailReason as any string — their §7.3 / §7.4 values are judged by the
 * checks of those sections, so a wrong value names them rather than §2.4.
 */
export const statusResponseSchema = strictStatusResponseSchema.extend({
  failReason: z.string(),
  refundFailReason: z.string(),
});

export type StatusResponse = z.infer<typeof statusResponseSchema>;
