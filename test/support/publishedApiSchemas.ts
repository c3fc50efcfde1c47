import { z } from 'zod';
import type { paths } from '@relayprotocol/relay-sdk';

/**
 * Runtime schemas of look-up responses, written from the service's published API types (the
 * official SDK's OpenAPI-generated `api.d.ts`). Each is strict (no field the published type lacks)
 * and the compile-time checks below fail `tsc` if a schema accepts a value the published type
 * would not.
 */
type Json200<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;
type AssignableTo<S, T> = [S] extends [T] ? true : false;

const integerString = z.string().regex(/^(0|[1-9][0-9]*)$/);
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
export const StatusV1Schema = z.object({
  status: z.enum(['failure', 'fallback', 'pending', 'received', 'success']),
  details: z.string().optional(),
  inTxHashes: z.array(z.string()),
  txHashes: z.array(z.string()),
  time: z.number(),
  originChainId: z.number().int(),
  destinationChainId: z.number().int(),
});
export const StatusV2Schema = z.object({
  status: z.enum(['refund', 'waiting', 'depositing', 'failure', 'pending', 'success']),
  details: z.string().optional(),
  inTxHashes: z.array(z.string()),
  txHashes: z.array(z.string()),
  time: z.number(),
  originChainId: z.number().int(),
  destinationChainId: z.number().int(),
  quoteCreatedAt: z.number(),
});

const AmountObjectSchema = z
  .object({
    currency: z
      .object({
        chainId: z.number().int(),
        address: z.string(),
        symbol: z.string(),
        name: z.string(),
        decimals: z.number().int(),
        metadata: z.object({ logoURI: z.string(), verified: z.boolean(), isNative: z.boolean() }).strict(),
      })
      .strict(),
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

// compile-time: each schema's values are values of the published type
export const PUBLISHED_TYPE_CHECKS: true[] = [
  true satisfies AssignableTo<z.infer<typeof AppFeeBalancesSchema>, Json200<'/app-fees/{wallet}/balances', 'get'>>,
  true satisfies AssignableTo<z.infer<typeof AppFeeClaimStepsSchema>, Json200<'/app-fees/{wallet}/claim', 'post'>>,
  true satisfies AssignableTo<z.infer<typeof AppFeeClaimsSchema>, Json200<'/app-fees/{wallet}/claims', 'get'>>,
  true satisfies AssignableTo<z.infer<typeof CurrenciesV1Schema>, Json200<'/currencies/v1', 'post'>>,
  true satisfies AssignableTo<z.infer<typeof CurrenciesV2Schema>, Json200<'/currencies/v2', 'post'>>,
  true satisfies AssignableTo<z.infer<typeof TokenPriceSchema>, Json200<'/currencies/token/price', 'get'>>,
  true satisfies AssignableTo<z.infer<typeof TokenPriceV2Schema>, Json200<'/currencies/token/price/v2', 'get'>>,
  true satisfies AssignableTo<z.infer<typeof SwapSourcesSchema>, Json200<'/swap-sources', 'get'>>,
  true satisfies AssignableTo<z.infer<typeof ChainsLiquiditySchema>, Json200<'/chains/liquidity', 'get'>>,
  true satisfies AssignableTo<z.infer<typeof ChainsHealthSchema>, Json200<'/chains/health', 'get'>>,
  true satisfies AssignableTo<z.infer<typeof ConfigSchema>, Json200<'/config', 'get'>>,
  true satisfies AssignableTo<z.infer<typeof ConfigV2Schema>, Json200<'/config/v2', 'get'>>,
  true satisfies AssignableTo<z.infer<typeof ReindexSchema>, Json200<'/transactions/deposit-address/reindex', 'post'>>,
  true satisfies AssignableTo<z.infer<typeof SignatureV2Schema>, Json200<'/requests/{requestId}/signature/v2', 'get'>>,
  true satisfies AssignableTo<z.infer<typeof StatusV1Schema>, Json200<'/intents/status', 'get'>>,
  true satisfies AssignableTo<z.infer<typeof StatusV2Schema>, Json200<'/intents/status/v2', 'get'>>,
];

/** Parses `body` with `schema`; a mismatch fails the test with every issue. */
export function expectPublishedShape<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body);
  if (!result.success) throw new Error(`response does not match the published type:\n${JSON.stringify(result.error.issues, null, 2)}\n${JSON.stringify(body).slice(0, 2000)}`);
  return result.data;
}
