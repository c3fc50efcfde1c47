import { z } from 'zod';

const ChainCurrencySchema = z.looseObject({
  id: z.string(),
  symbol: z.string(),
  name: z.string(),
  address: z.string(),
  decimals: z.number().int(),
  supportsBridging: z.boolean(),
});

/** SPEC §2.1: one element of `chains` from `GET /chains`. */
export const ChainSchema = z
  .looseObject({
    id: z.number().int(),
    name: z.string(),
    displayName: z.string(),
    httpRpcUrl: z.string(),
    wsRpcUrl: z.string(),
    explorerUrl: z.string(),
    explorerName: z.string(),
    explorerPaths: z.looseObject({ transaction: z.string() }).optional(),
    depositEnabled: z.boolean(),
    tokenSupport: z.string(),
    disabled: z.boolean(),
    partialDisableLimit: z.number(),
    blockProductionLagging: z.boolean(),
    currency: ChainCurrencySchema,
    withdrawalFee: z.number(),
    depositFee: z.number(),
    surgeEnabled: z.boolean(),
    featuredTokens: z.array(ChainCurrencySchema.extend({ metadata: z.looseObject({ logoURI: z.string().optional() }).optional() })),
    erc20Currencies: z.array(ChainCurrencySchema.extend({ withdrawalFee: z.number(), depositFee: z.number(), surgeEnabled: z.boolean() })),
    solverCurrencies: z.array(ChainCurrencySchema.omit({ supportsBridging: true })),
    iconUrl: z.string(),
    contracts: z.record(z.string(), z.unknown()),
    vmType: z.string(),
    baseChainId: z.number().int(),
    solverAddresses: z.array(z.string()),
    tags: z.array(z.unknown()),
    protocol: z.looseObject({ v2: z.looseObject({ chainId: z.string(), depository: z.string() }) }),
  })
  .meta({ id: 'Chain' });

/** SPEC §4.4 `GET /chains`. */
export const ChainsResponseSchema = z.object({ chains: z.array(ChainSchema) });
