import { z } from 'zod';
import { unixMillis } from './common';
import { FAIL_REASONS, REFUND_FAIL_REASONS } from './failReasonEnums';
import { requestStatus } from './statusResponseSchema';

/** SPEC §6.1 `data.depositAddress`: null, or the deposit address with its type and what was seen paid into it. */
const webhookDepositAddress = z
  .object({
    address: z.string(),
    depositAddressType: z.enum(['open', 'strict']),
    depositor: z.string().nullable(),
    depositTxHash: z.string().nullable(),
  })
  .nullable();

/** SPEC §6.1: the body of a `request.status.updated` webhook, every field of the payload table. */
export const webhookPayloadSchema = z.object({
  event: z.literal('request.status.updated'),
  timestamp: unixMillis,
  data: z.object({
    status: requestStatus,
    inTxHashes: z.array(z.string()),
    txHashes: z.array(z.string()),
    updatedAt: unixMillis,
    originChainId: z.number().int(),
    destinationChainId: z.number().int(),
    depositAddress: webhookDepositAddress,
    requestId: z.string(),
    referrer: z.string().nullable(),
    details: z.unknown(), // present: null, or context the SPEC gives no shape for
    failReason: z.enum(FAIL_REASONS),
    refundFailReason: z.enum(REFUND_FAIL_REASONS),
  }),
});

export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;
