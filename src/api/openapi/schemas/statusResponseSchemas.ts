import { z } from 'zod';
import { FAIL_REASONS, REFUND_FAIL_REASONS, REQUEST_STATUSES } from '../../../domain/request/requestStatus';
import { REQUEST_STATUS_UPDATED } from '../../../domain/webhook/webhookPayload';

export const RequestStatusSchema = z.enum(REQUEST_STATUSES).meta({ id: 'RequestStatus', description: 'SPEC §3 request status' });
export const FailReasonSchema = z.enum(FAIL_REASONS).meta({ id: 'FailReason', description: 'SPEC §7.3' });
export const RefundFailReasonSchema = z.enum(REFUND_FAIL_REASONS).meta({ id: 'RefundFailReason', description: 'SPEC §7.4' });

/** SPEC §2.4 `details`: the decoded revert of a failed fill, or null. */
const StatusDetailsSchema = z.object({ decodedRevert: z.looseObject({ kind: z.string(), label: z.string() }) }).nullable();

/** SPEC §2.4: `GET /intents/status/v3`. */
export const StatusResponseSchema = z
  .object({
    status: RequestStatusSchema,
    inTxHashes: z.array(z.string()),
    txHashes: z.array(z.string()),
    updatedAt: z.number().int(),
    originChainId: z.number().int(),
    destinationChainId: z.number().int(),
    details: StatusDetailsSchema,
    failReason: FailReasonSchema,
    refundFailReason: RefundFailReasonSchema,
  })
  .meta({ id: 'StatusResponse' });

/** SPEC §6.1: the body of a `request.status.updated` webhook. */
export const WebhookPayloadSchema = z
  .object({
    event: z.literal(REQUEST_STATUS_UPDATED),
    timestamp: z.number().int(),
    data: StatusResponseSchema.extend({
      requestId: z.string(),
      referrer: z.string().nullable(),
      depositAddress: z
        .object({ address: z.string(), depositAddressType: z.enum(['open', 'strict']), depositor: z.string().nullable(), depositTxHash: z.string().nullable() })
        .nullable(),
    }),
  })
  .meta({ id: 'WebhookPayload' });
