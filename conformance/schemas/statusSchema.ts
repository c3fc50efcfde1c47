import { z } from 'zod';
import { unixMillis } from './common';
import { failReasonValues, refundFailReasonValues, requestStatusValues } from './failReasonValues';

/**
 * SPEC §2.4: the answer of `GET /intents/status/v3`. `status` takes the §3 values and `fallback`
 * (named by §2.4's failReason rule); `refundFailReason` is a §7.4 value or its default `N/A`;
 * `details` is present, null when there is nothing to add.
 */
export const statusResponseSchema = z.object({
  status: z.enum([...requestStatusValues, 'fallback']),
  inTxHashes: z.array(z.string()),
  txHashes: z.array(z.string()),
  updatedAt: unixMillis,
  originChainId: z.number().int(),
  destinationChainId: z.number().int(),
  details: z.unknown(),
  failReason: z.enum(failReasonValues),
  refundFailReason: z.enum([...refundFailReasonValues, 'N/A']),
});

export type StatusResponse = z.infer<typeof statusResponseSchema>;
