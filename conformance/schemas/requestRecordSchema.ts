import { z } from 'zod';
import { unixMillis } from './common';
import { failReasonValues, refundFailReasonValues, requestStatusValues } from './failReasonValues';

/*
 * SPEC §2.3, written from its tables. A field the tables type with null ("string or null",
 * "nullable", "number or null") is present on every record, null when it has no value. A field
 * they type without null (`failedTxHash` string, `failedTxBlockNumber` number, `failedCallData`,
 * `appFees`, `feeSponsorship` objects) holds a value of that type or is absent: never null. A
 * client parsing records with types generated from the service's published API rejects a null
 * there.
 */

/** `metadata.reorg` of an `inTxs` entry caught by the reorg/finality path. */
const reorgMetadata = z.object({
  detectedAt: unixMillis,
  source: z.string(),
  reason: z.string(),
  details: z.unknown().optional(),
  failReason: z.string().optional(),
  action: z.enum(['fill', 'refund']).optional(),
  blockNumber: z.number().int().optional(),
  blockHash: z.string().optional(),
  receiptStatus: z.unknown().optional(),
});

/** A transaction entry of `data.inTxs[]` / `data.outTxs[]`; `data` and `stateChanges` are "any" but present. */
export const transactionEntrySchema = z.object({
  txHash: z.string(),
  fee: z.string(),
  feeUsd: z.string(),
  block: z.number().int(),
  type: z.string(),
  chainId: z.number().int(),
  timestamp: z.number(),
  status: z.enum(['success', 'failure']),
  data: z.unknown(),
  stateChanges: z.unknown(),
  metadata: z.object({ reorg: reorgMetadata.optional() }).optional(),
});

const appFeeQuoted = z.object({ recipient: z.string(), bps: z.string(), amount: z.string(), amountFormatted: z.string() });

const appFees = z.object({
  quoted: z.array(appFeeQuoted),
  actual: z.array(appFeeQuoted.extend({ amountUsd: z.string() })),
  currency: z.object({
    chainId: z.number().int(),
    address: z.string(),
    symbol: z.string(),
    name: z.string(),
    decimals: z.number().int().nonnegative(),
    metadata: z.object({ logoURI: z.string(), verified: z.boolean(), isNative: z.boolean() }),
  }),
});

const sponsorshipAmount = z.object({ amount: z.string(), amountFormatted: z.string(), amountUsd: z.string(), minimumAmount: z.string() });
const sponsorshipBucket = z.object({ selected: z.boolean(), total: sponsorshipAmount, sponsored: sponsorshipAmount, userPays: sponsorshipAmount });
const sponsorshipComponents = ['execution', 'swap', 'platform', 'app', 'rent'] as const;

const feeSponsorship = z.object({
  quoted: z.object({
    selectedComponents: z.array(z.enum(sponsorshipComponents)),
    maxSubsidizationAmount: z.string().optional(),
    capHit: z.boolean(),
    components: z.object(Object.fromEntries(sponsorshipComponents.map((name) => [name, sponsorshipBucket])) as Record<(typeof sponsorshipComponents)[number], typeof sponsorshipBucket>),
  }),
});

const depositAddress = z.object({
  address: z.string(),
  type: z.enum(['strict', 'open']),
  depositor: z.string().nullable(),
  depositTxHash: z.string().nullable(),
  recoveryAddress: z.string().nullable(),
});

/** SPEC §2.3: one element of `requests` from `GET /requests/v3`. */
export const requestRecordSchema = z.object({
  id: z.string(),
  status: z.enum(requestStatusValues),
  user: z.string(),
  recipient: z.string(),
  sender: z.string().nullable(),
  refundTo: z.string().nullable(),
  supersededByRequestId: z.string().nullable(),
  depositAddress: depositAddress.nullable(),
  data: z.object({
    slippageTolerance: z.string(),
    failReason: z.enum(failReasonValues).nullable(),
    refundFailReason: z.enum(refundFailReasonValues).nullable(),
    failedTxHash: z.string().optional(),
    failedTxBlockNumber: z.number().int().optional(),
    failedCallData: z.object({ from: z.string(), to: z.string(), data: z.string(), value: z.string() }).optional(),
    usesExternalLiquidity: z.boolean(),
    timeEstimate: z.number().nullable(),
    triggeredByFastFill: z.boolean().nullable(),
    inTxs: z.array(transactionEntrySchema),
    outTxs: z.array(transactionEntrySchema),
    appFees: appFees.optional(),
    feeSponsorship: feeSponsorship.optional(),
  }),
});

export type RequestRecord = z.infer<typeof requestRecordSchema>;

/**
 * The `GET /requests/v3` answer read loosely (ids and the fields the listing checks compare);
 * the §2.3 shape of each record is judged by `listing.record-fields`. The cursor's field name is
 * not shown in the SPEC (§4.3): it is read as `continuation`, the name of the request parameter
 * it is passed back in.
 */
export const listingPageSchema = z.object({
  requests: z.array(
    z.looseObject({
      id: z.string(),
      status: z.string().optional(),
      user: z.string().optional(),
      recipient: z.string().optional(),
      createdAt: z.union([z.string(), z.number()]).optional(),
      updatedAt: z.union([z.string(), z.number()]).optional(),
    }),
  ),
  continuation: z.string().nullish(),
});

export type ListingPage = z.infer<typeof listingPageSchema>;
