import { z } from 'zod';

/**
 * The look-up answers of the service's published API (the official SDK's OpenAPI-generated
 * `api.d.ts`), as zod schemas: each strict (no field the published type lacks). They describe
 * these routes' responses in `GET /openapi.json`; `test/support/publishedApiSchemas.ts` proves at
 * compile time that each one's values are values of the published type.
 */
export const integerString = z.string().regex(/^(0|[1-9][0-9]*)$/);
const VM_TYPES = ['bvm', 'evm', 'svm', 'tvm', 'tonvm', 'hypevm', 'lvm', 'xrpvm'] as const;

export const CurrencyV2EntrySchema = z
  .object({
    chainId: z.number().int(),
    address: z.string(),
    symbol: z.string(),
    name: z.string(),
    decimals: z.number().int(),
    vmType: z.enum(VM_TYPES),
    metadata: z.object({ logoURI: z.string(), verified: z.boolean(), isNative: z.boolean() }).strict(),
  })
  .strict();
export const CurrenciesV2Schema = z.array(CurrencyV2EntrySchema);
export const CurrenciesV1Schema = z.array(z.array(CurrencyV2EntrySchema.extend({ groupID: z.string() }).strict()));
export const TokenPriceSchema = z.object({ price: z.number() }).strict();
export const TokenPriceV2Schema = z.object({ price: z.string().regex(/^[0-9]+(\.[0-9]+)?$/) }).strict();
export const SwapSourcesSchema = z.object({ sources: z.array(z.string()) }).strict();
export const ChainsLiquiditySchema = z
  .object({
    liquidity: z.array(
      z
        .object({
          chainId: z.number().int(),
          currencyId: z.string(),
          symbol: z.string(),
          address: z.string(),
          decimals: z.number().int(),
          balance: integerString,
          amountUsd: z.string(),
        })
        .strict(),
    ),
  })
  .strict();
export const ChainsHealthSchema = z.object({ healthy: z.boolean() }).strict();
const ConfigUserSchema = z.object({ balance: integerString, maxBridgeAmount: integerString }).strict();
const ConfigSolverSchema = z.object({ address: z.string(), balance: integerString, capacityPerRequest: integerString }).strict();
export const ConfigSchema = z.object({ enabled: z.boolean(), user: ConfigUserSchema.optional(), solver: ConfigSolverSchema, supportsExternalLiquidity: z.boolean() }).strict();
export const ConfigV2Schema = ConfigSchema.extend({ fee: integerString }).strict();
export const ReindexSchema = z
  .object({
    message: z.string(),
    triggeredCurrencies: z.array(z.object({ currency: z.string(), symbol: z.string(), balance: integerString }).strict()),
    checkedCurrencies: z.number().int(),
    failedCurrencies: z.number().int(),
  })
  .strict();
export const SignatureV2Schema = z
  .object({
    requestData: z
      .object({
        originChainId: z.number().int(),
        originUser: z.string(),
        originCurrency: z.string(),
        destinationChainId: z.number().int(),
        destinationUser: z.string(),
        destinationCurrency: z.string(),
      })
      .strict(),
    signature: z.string().regex(/^0x[0-9a-f]{130}$/),
  })
  .strict();
/** The older status versions: the published fields (strict not: they also carry the v3 fields). */
export const StatusV1Schema = z.looseObject({
  status: z.enum(['failure', 'fallback', 'pending', 'received', 'success']),
  details: z.string().optional(),
  inTxHashes: z.array(z.string()),
  txHashes: z.array(z.string()),
  time: z.number(),
  originChainId: z.number().int(),
  destinationChainId: z.number().int(),
});
export const StatusV2Schema = z.looseObject({
  status: z.enum(['refund', 'waiting', 'depositing', 'failure', 'pending', 'success']),
  details: z.string().optional(),
  inTxHashes: z.array(z.string()),
  txHashes: z.array(z.string()),
  time: z.number(),
  originChainId: z.number().int(),
  destinationChainId: z.number().int(),
  quoteCreatedAt: z.number(),
});

export const AmountObjectSchema = z
  .object({
    currency: CurrencyV2EntrySchema.omit({ vmType: true }),
    amount: integerString,
    amountFormatted: z.string(),
    amountUsd: z.string(),
    minimumAmount: integerString,
  })
  .strict();
export const AppFeeBalancesSchema = z
  .object({ balances: z.array(AmountObjectSchema), totalBalanceUsd: z.number(), outstandingFastFillBalanceUsd: z.number(), availableBalanceUsd: z.number() })
  .strict();
export const AppFeeClaimStepsSchema = z
  .object({
    steps: z.array(
      z
        .object({
          id: z.string(),
          action: z.string(),
          description: z.string(),
          kind: z.literal('signature'),
          items: z.array(z.object({ status: z.literal('incomplete'), data: z.object({ sign: z.record(z.string(), z.unknown()), post: z.record(z.string(), z.unknown()) }).strict() }).strict()).length(1),
        })
        .strict(),
    ).length(1),
  })
  .strict();
export const AppFeeClaimsSchema = z
  .object({
    claims: z.array(
      z
        .object({
          claimId: z.string(),
          wallet: z.string(),
          recipient: z.string(),
          currency: AmountObjectSchema,
          txHash: z.string().nullable(),
          status: z.string(),
          createdAt: z.string(),
        })
        .strict(),
    ),
    continuation: z.string().optional(),
  })
  .strict();
