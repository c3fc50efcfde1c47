import type { Currency } from './currency';
import type { ChainDescription, ChainExplorerLinks } from './chainDescription';

/** Chains whose fees settle on Ethereum report it as `baseChainId` (SPEC §2.1). */
const L2_BASE_CHAIN: Readonly<Record<number, number>> = { 10: 1, 8453: 1, 42161: 1 };

function chainCurrency(currency: Currency) {
  return {
    id: currency.symbol.toLowerCase(),
    symbol: currency.symbol,
    name: currency.name,
    address: currency.address,
    decimals: currency.decimals,
    supportsBridging: true,
  };
}

/** SPEC §2.1: one element of `GET /chains`. Pure: built from what the chain describes. */
export function buildChainView(chain: ChainDescription, explorer: ChainExplorerLinks) {
  const tokens = [chain.nativeCurrency, ...chain.erc20Currencies];
  return {
    id: chain.id,
    name: chain.name,
    displayName: chain.displayName,
    httpRpcUrl: chain.httpRpcUrl,
    wsRpcUrl: chain.wsRpcUrl,
    explorerUrl: explorer.explorerUrl,
    explorerName: explorer.explorerName,
    explorerPaths: explorer.explorerPaths,
    depositEnabled: true,
    tokenSupport: 'All',
    disabled: false,
    partialDisableLimit: 0,
    blockProductionLagging: false,
    currency: chainCurrency(chain.nativeCurrency),
    withdrawalFee: 0,
    depositFee: 0,
    surgeEnabled: false,
    featuredTokens: tokens.map((token) => ({ ...chainCurrency(token), metadata: { logoURI: token.logoURI } })),
    erc20Currencies: chain.erc20Currencies.map((token) => ({
      ...chainCurrency(token),
      withdrawalFee: 0,
      depositFee: 0,
      surgeEnabled: false,
    })),
    solverCurrencies: tokens.map((token) => {
      const { supportsBridging: _omit, ...rest } = chainCurrency(token);
      return rest;
    }),
    iconUrl: `https://intentsim.invalid/icons/${chain.name}.png`,
    contracts: chain.contracts,
    vmType: chain.vmType,
    baseChainId: L2_BASE_CHAIN[chain.id] ?? chain.id,
    solverAddresses: [chain.solverAddress],
    tags: [],
    protocol: { v2: { chainId: chain.name, depository: chain.depository } },
  };
}
