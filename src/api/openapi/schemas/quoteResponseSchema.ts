import { z } from 'zod';
import { AmountSchema, DecimalStringSchema, IntegerStringSchema, UsdPercentSchema, UsdSchema } from './amountSchemas';

/** SPEC §2.2 step item: `data` is a transaction (EVM, SVM, BVM or exchange shape) or a signature to make. */
const StepItemSchema = z.looseObject({
  status: z.string(),
  data: z.record(z.string(), z.unknown()),
  check: z.object({ endpoint: z.string(), method: z.string().meta({ description: 'GET' }) }).optional(),
});

/** SPEC §2.2 step. */
export const StepSchema = z
  .looseObject({
    id: z.string(),
    action: z.string(),
    description: z.string(),
    kind: z.enum(['transaction', 'signature']),
    requestId: z.string().optional(),
    depositAddress: z.string().optional(),
    items: z.array(StepItemSchema),
  })
  .meta({ id: 'Step' });

const FeesSchema = z.looseObject({
  gas: AmountSchema,
  relayer: AmountSchema,
  relayerGas: AmountSchema,
  relayerService: AmountSchema,
  app: AmountSchema,
  subsidized: AmountSchema,
});

const SlippageSideSchema = z.looseObject({ usd: DecimalStringSchema, value: z.string(), percent: DecimalStringSchema });
const RouteSideSchema = z.looseObject({ inputCurrency: AmountSchema, outputCurrency: AmountSchema, router: z.string() });

/** The details both a quote and a price carry (SPEC §2.2; `POST /price` answers these only). */
const PriceDetailsSchema = z.looseObject({
  operation: z.string(),
  sender: z.string(),
  recipient: z.string(),
  currencyIn: AmountSchema,
  currencyOut: AmountSchema,
  totalImpact: UsdPercentSchema,
  swapImpact: UsdPercentSchema,
  rate: z.string(),
  slippageTolerance: z.looseObject({ origin: SlippageSideSchema, destination: SlippageSideSchema }),
  timeEstimate: z.number(),
  userBalance: z.string(),
});

const QuoteDetailsSchema = PriceDetailsSchema.extend({
  refundCurrency: AmountSchema,
  expandedPriceImpact: z.record(z.string(), UsdSchema),
  isFixedRate: z.boolean(),
  route: z.looseObject({ origin: RouteSideSchema, destination: RouteSideSchema }),
});

/** SPEC §2.2 `protocol.v2.orderData` (chains named by their settlement-protocol chain names). */
const OrderDataSchema = z.object({
  version: z.string(),
  solverChainId: z.string(),
  solver: z.string(),
  salt: z.string(),
  inputs: z.array(
    z.object({
      payment: z.object({ chainId: z.string(), currency: z.string(), amount: IntegerStringSchema, weight: z.string() }),
      refunds: z.array(z.object({ chainId: z.string(), recipient: z.string(), currency: z.string(), minimumAmount: IntegerStringSchema, deadline: z.number().int(), extraData: z.string() })),
    }),
  ),
  output: z.object({
    chainId: z.string(),
    payments: z.array(z.object({ recipient: z.string(), currency: z.string(), minimumAmount: IntegerStringSchema, expectedAmount: IntegerStringSchema })),
    calls: z.array(z.object({ to: z.string(), value: z.string(), data: z.string() })),
    deadline: z.number().int(),
    extraData: z.string(),
  }),
  fees: z.array(z.object({ recipient: z.string(), chainId: z.string(), currency: z.string(), amount: IntegerStringSchema })),
});

/** SPEC §2.2 `protocol.v2`: the settlement order (orderSignature only with `includeProtocolData`). */
const ProtocolSchema = z.object({
  v2: z.object({
    orderId: z.string(),
    hubType: z.literal('onchain'),
    orderSignature: z.string().optional(),
    orderData: OrderDataSchema,
    paymentDetails: z.object({ chainId: z.string(), depository: z.string(), currency: z.string(), amount: IntegerStringSchema }),
  }),
});

/** SPEC §2.2: the answer of `POST /quote/v2` and `POST /quote`. */
export const QuoteResponseSchema = z
  .looseObject({ steps: z.array(StepSchema), fees: FeesSchema, details: QuoteDetailsSchema, protocol: ProtocolSchema.optional() })
  .meta({ id: 'Quote' });

/** `POST /price`: the quote's fees and the lighter details, no steps. */
export const PriceResponseSchema = z.object({ fees: FeesSchema, details: PriceDetailsSchema }).meta({ id: 'Price' });
