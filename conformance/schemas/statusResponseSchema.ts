import { z } from 'zod';
import { REQUEST_STATUSES } from '../statusTransitions';
import { unixMillis } from './common';

/** SPEC §2.4 `status`: the §3 statuses, and `fallback`, which §2.4 and §3 refer to without a meaning. */
export const requestStatus = z.enum([...REQUEST_STATUSES, 'fallback']);

/** SPEC §2.4: the answer of `GET /intents/status/v3`, every field of the table. */
export const statusResponseSchema = z.object({
  status: requestStatus,
  inTxHashes: z.array(z.string()),
  txHashes: z.array(z.string()),
  updatedAt: unixMillis,
  originChainId: z.number().int(),
  destinationChainId: z.number().int(),
  details: z.unknown(), // present: null, or context the SPEC gives no shape for
  // the §7.3 / §7.4 values are judged by the checks of those sections, so a wrong value names them
  failReason: z.string(),
  refundFailReason: z.string(),
});

export type StatusResponse = z.infer<typeof statusResponseSchema>;
