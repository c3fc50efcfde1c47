import { z } from 'zod';
import { hexString, integerString, unixSeconds } from './common';

/** A 20-byte EVM address, any letter case (checksums are judged by the checks that need them). */
export const evmAddressString = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'a 0x-prefixed 20-byte EVM address');

/** SPEC §2.2 Fees: the `currency` of an amount object. */
export const amountCurrencySchema = z.object({
  chainId: z.number().int(),
  address: z.string(),
  symbol: z.string(),
  name: z.string(),
  decimals: z.number().int().nonnegative(),
  metadata: z.object({ logoURI: z.string().optional(), verified: z.boolean().optional() }).optional(),
});

/** SPEC §2.2: an amount object with every field (`details.currencyIn`, `route.*.inputCurrency`, …). */
export const amountObjectSchema = z.object({
  currency: amountCurrencySchema,
  amount: integerString,
  amountFormatted: z.string(),
  amountUsd: z.string(),
  minimumAmount: integerString,
});

/** SPEC §2.2 Fees: "Shorter forms with only `amount` and `currency` occur"; the other fields are typed when present. */
export const feeAmountSchema = amountObjectSchema.partial({ amountFormatted: true, amountUsd: true, minimumAmount: true });

/** SPEC §2.2 Fees: every key of the table. */
export const feesSchema = z.object({
  gas: feeAmountSchema,
  relayer: feeAmountSchema,
  relayerGas: feeAmountSchema,
  relayerService: feeAmountSchema,
  app: feeAmountSchema,
  subsidized: feeAmountSchema,
});

const usdAndPercent = z.object({ usd: z.string(), percent: z.string() });
const usdOnly = z.object({ usd: z.string() });
const slippageSide = z.object({ usd: z.string(), value: z.string(), percent: z.string() });
const routeSide = z.object({ inputCurrency: amountObjectSchema, outputCurrency: amountObjectSchema, router: z.string() });

/**
 * SPEC §2.2 Details, every row of the table. `expandedPriceImpact` names "the service" as one
 * of its keys without giving its spelling, so only swap, execution, app and sponsored are named.
 */
export const detailsSchema = z.object({
  operation: z.string(),
  sender: z.string(),
  recipient: z.string(),
  currencyIn: amountObjectSchema,
  currencyOut: amountObjectSchema,
  refundCurrency: amountObjectSchema,
  totalImpact: usdAndPercent,
  swapImpact: usdAndPercent,
  expandedPriceImpact: z.record(z.string(), usdOnly).and(z.object({ swap: usdOnly, execution: usdOnly, app: usdOnly, sponsored: usdOnly })),
  rate: z.string(),
  slippageTolerance: z.object({ origin: slippageSide, destination: slippageSide }),
  timeEstimate: z.number().nonnegative(),
  userBalance: integerString,
  isFixedRate: z.boolean(),
  route: z.object({ origin: routeSide, destination: routeSide }),
});

/** A chain as the settlement protocol names it (`/chains` `protocol.v2.chainId` is a string name); its type is not in the table. */
const protocolChainId = z.union([z.string(), z.number().int()]);

/** SPEC §2.2 Protocol: `protocol.v2`. Amounts are integer strings; deadlines unix seconds. */
export const protocolV2Schema = z.object({
  orderId: hexString.min(3, 'a non-empty hex string'),
  hubType: z.literal('onchain'),
  orderSignature: hexString.optional(),
  orderData: z.object({
    version: z.union([z.string(), z.number()]),
    solverChainId: protocolChainId,
    solver: z.string(),
    salt: z.union([z.string(), z.number()]),
    inputs: z.array(
      z.object({
        payment: z.object({ chainId: protocolChainId, currency: z.string(), amount: integerString, weight: z.union([z.string(), z.number()]) }),
        refunds: z.array(
          z.object({ chainId: protocolChainId, recipient: z.string(), currency: z.string(), minimumAmount: integerString, deadline: unixSeconds, extraData: z.string() }),
        ),
      }),
    ),
    output: z.object({
      chainId: protocolChainId,
      payments: z.array(z.object({ recipient: z.string(), currency: z.string(), minimumAmount: integerString, expectedAmount: integerString })),
      calls: z.array(z.unknown()),
      deadline: unixSeconds,
      extraData: z.string(),
    }),
    fees: z.array(z.unknown()),
  }),
  paymentDetails: z.object({ chainId: protocolChainId, depository: z.string(), currency: z.string(), amount: integerString }),
});

/** SPEC §2.2 Step item: `check` is optional and, when there, a GET of the status check path. */
export const checkSchema = z.object({ endpoint: z.string().min(1), method: z.literal('GET') });

/** SPEC §2.2 Step item, transaction kind, EVM: from, to, data, value, chainId; gas fields optional strings. */
export const evmTransactionDataSchema = z.object({
  from: evmAddressString,
  to: evmAddressString,
  data: hexString,
  value: integerString,
  chainId: z.number().int(),
  gas: z.string().optional(),
  maxFeePerGas: z.string().optional(),
  maxPriorityFeePerGas: z.string().optional(),
});

/** SPEC §2.2: "For EVM approval steps `data` holds from, to, chainId" (calldata and value, when given, typed as for any transaction). */
export const evmApprovalDataSchema = evmTransactionDataSchema.partial({ data: true, value: true });

/** SPEC §2.2: signature-kind data "carries a `signatureKind` and a `message`"; the rest of its shape is not given. */
export const signatureDataSchema = z.object({ signatureKind: z.unknown().refine((value) => value !== undefined, 'signatureKind is required'), message: z.unknown().refine((value) => value !== undefined, 'message is required') });

const stepItemSchema = z.object({ status: z.string(), data: z.unknown(), check: checkSchema.optional() });

/** SPEC §2.2 Step; the shape of each item's `data` depends on the step's kind (see `evmQuoteResponseSchema`). */
export const stepSchema = z.object({
  id: z.string().min(1),
  action: z.string(),
  description: z.string(),
  kind: z.enum(['transaction', 'signature']),
  requestId: z.string().min(1),
  depositAddress: z.string(),
  items: z.array(stepItemSchema),
});

/**
 * SPEC §2.2: the quote response of an EVM-origin quote (every quote the suite builds starts on
 * an EVM chain): transaction items carry EVM transaction data, approval steps at least
 * from/to/chainId, signature items a signatureKind and a message.
 */
export const evmQuoteResponseSchema = z
  .object({
    steps: z.array(stepSchema).min(1),
    fees: feesSchema,
    details: detailsSchema,
    protocol: z.object({ v2: protocolV2Schema.optional() }).optional(),
  })
  .superRefine((quote, context) => {
    quote.steps.forEach((step, stepIndex) => {
      const dataSchema = step.kind === 'signature' ? signatureDataSchema : step.id === 'approve' ? evmApprovalDataSchema : evmTransactionDataSchema;
      step.items.forEach((item, itemIndex) => {
        const parsed = dataSchema.safeParse(item.data);
        if (parsed.success) return;
        for (const issue of parsed.error.issues) context.addIssue({ code: 'custom', message: issue.message, path: ['steps', stepIndex, 'items', itemIndex, 'data', ...issue.path] });
      });
    });
  });

export type EvmQuoteResponse = z.infer<typeof evmQuoteResponseSchema>;
