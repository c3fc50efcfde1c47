import { z } from 'zod';
import { AmountSchema, DecimalStringSchema, UsdPercentSchema, UsdSchema } from './amountSchemas';

/** SPEC §2.2 step item: `data` is a transaction (EVM, SVM, BVM or exchange shape) or a signature to make. */
const StepItemSchema = z.looseObject({
  status: z.string(),
  data: z.record(z.string(), z.unknown()),
  check: z.object({ endpoint: z.string(), method: z.literal('GET') }).optional(),
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

/** SPEC §2.2 `protocol.v2`: the settlement order (orderSignature only with `includeProtocolData`). */
const ProtocolSchema = z.looseObject({
  v2: z.looseObject({
    orderId: z.string(),
    hubType: z.string(),
    orderSignature: z.string().optional(),
    orderData: z.record(z.string(), z.unknown()),
    paymentDetails: z.record(z.string(), z.unknown()),
  }),
});

/** SPEC §2.2: the answer of `POST /quote/v2` and `POST /quote`. */
export const QuoteResponseSchema = z
  .looseObject({ steps: z.array(StepSchema), fees: FeesSchema, details: QuoteDetailsSchema, protocol: ProtocolSchema.optional() })
  .meta({ id: 'Quote' });

/** `POST /price`: the quote's fees and the lighter details, no steps. */
export const PriceResponseSchema = z.object({ fees: FeesSchema, details: PriceDetailsSchema }).meta({ id: 'Price' });
