import { z } from 'zod';

/** A currency object of §2.1 (`currency`, `featuredTokens`, `erc20Currencies`, `solverCurrencies`). */
const chainCurrency = z.object({
  id: z.string(),
  symbol: z.string(),
  name: z.string(),
  address: z.string(),
  decimals: z.number().int().nonnegative(),
});

/** SPEC §2.1: one element of `chains` from `GET /chains`, every field of the table. */
export const chainSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  displayName: z.string(),
  httpRpcUrl: z.string(),
  wsRpcUrl: z.string(),
  explorerUrl: z.string(),
  explorerName: z.string(),
  explorerPaths: z.object({ transaction: z.string().includes('{TX_HASH}') }).optional(),
  depositEnabled: z.boolean(),
  tokenSupport: z.string(),
  disabled: z.boolean(),
  partialDisableLimit: z.number(),
  blockProductionLagging: z.boolean(),
  currency: chainCurrency.extend({ supportsBridging: z.boolean() }),
  withdrawalFee: z.number(),
  depositFee: z.number(),
  surgeEnabled: z.boolean(),
  featuredTokens: z.array(chainCurrency.extend({ metadata: z.object({ logoURI: z.string().optional() }).optional() })),
  erc20Currencies: z.array(chainCurrency.extend({ withdrawalFee: z.number(), depositFee: z.number(), surgeEnabled: z.boolean() })),
  solverCurrencies: z.array(chainCurrency),
  iconUrl: z.string(),
  contracts: z.object({
    multicall3: z.string(),
    multicaller: z.string(),
    onlyOwnerMulticaller: z.string(),
    serviceReceiver: z.string(),
    erc20Router: z.string(),
    approvalProxy: z.string(),
    v3: z.object({ erc20Router: z.string(), approvalProxy: z.string() }),
  }),
  vmType: z.string(),
  baseChainId: z.number().int(),
  solverAddresses: z.array(z.string()),
  tags: z.array(z.unknown()),
  protocol: z.object({ v2: z.object({ chainId: z.string(), depository: z.string() }) }).optional(),
});

export const chainsResponseSchema = z.object({ chains: z.array(chainSchema) });
