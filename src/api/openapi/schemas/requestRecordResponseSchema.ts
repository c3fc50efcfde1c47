import { z } from 'zod';
import { AmountSchema, DecimalStringSchema, IntegerStringSchema } from './amountSchemas';
import { FailReasonSchema, RefundFailReasonSchema, RequestStatusSchema } from './statusResponseSchemas';

/** SPEC §2.3 transaction entry (`inTxs[]`, `outTxs[]`). */
const TransactionEntrySchema = z.looseObject({
  txHash: z.string(),
  fee: IntegerStringSchema,
  feeUsd: DecimalStringSchema,
  block: z.number().int(),
  type: z.string(),
  chainId: z.number().int(),
  timestamp: z.number().int(),
  status: z.enum(['success', 'failure']),
  data: z.unknown(),
  stateChanges: z.unknown(),
  metadata: z.looseObject({ reorg: z.looseObject({ detectedAt: z.number(), source: z.string(), reason: z.string() }).optional() }).optional(),
});

const AppFeeSchema = z.looseObject({ recipient: z.string(), bps: z.string(), amount: IntegerStringSchema, amountFormatted: z.string() });

/** SPEC §2.3 `data`. A field typed without null is left out when it has no value. */
const RecordDataSchema = z.looseObject({
  slippageTolerance: z.string(),
  failReason: FailReasonSchema.nullable(),
  refundFailReason: RefundFailReasonSchema.nullable(),
  failedTxHash: z.string().optional(),
  failedTxBlockNumber: z.number().int().optional(),
  failedCallData: z.looseObject({ from: z.string(), to: z.string(), data: z.string(), value: z.string() }).optional(),
  usesExternalLiquidity: z.boolean(),
  timeEstimate: z.number().nullable(),
  triggeredByFastFill: z.boolean().nullable(),
  inTxs: z.array(TransactionEntrySchema),
  outTxs: z.array(TransactionEntrySchema),
  appFees: z.looseObject({ quoted: z.array(AppFeeSchema), actual: z.array(AppFeeSchema.extend({ amountUsd: z.string() })), currency: AmountSchema.shape.currency }).optional(),
  feeSponsorship: z.looseObject({ quoted: z.unknown().meta({ description: 'SPEC §2.3 feeSponsorship.quoted' }) }).optional(),
});

/** SPEC §2.3: one element of `requests` from `GET /requests/v3`. */
export const RequestRecordSchema = z
  .looseObject({
    id: z.string(),
    status: RequestStatusSchema,
    user: z.string(),
    recipient: z.string(),
    sender: z.string().nullable(),
    refundTo: z.string().nullable(),
    supersededByRequestId: z.string().nullable(),
    depositAddress: z
      .looseObject({
        address: z.string(),
        type: z.enum(['strict', 'open']),
        depositor: z.string().nullable(),
        depositTxHash: z.string().nullable(),
        recoveryAddress: z.string().nullable(),
      })
      .nullable(),
    data: RecordDataSchema,
  })
  .meta({ id: 'RequestRecord' });

/** SPEC §4.3: a page of `GET /requests/v3`. */
export const RequestPageSchema = z.object({ requests: z.array(RequestRecordSchema), continuation: z.string().optional(), total: z.number().int().optional() });

/** A record of the deprecated `GET /requests` and `/requests/v2`, in their older field names. */
const LegacyRequestRecordSchema = z.looseObject({ id: z.string(), status: z.string(), user: z.string(), recipient: z.string(), data: z.record(z.string(), z.unknown()) });

/** A page of the deprecated listings. */
export const LegacyRequestPageSchema = z.object({ requests: z.array(LegacyRequestRecordSchema), continuation: z.string().optional() });
