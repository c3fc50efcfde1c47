import { zeroAddress } from 'viem';
import type { ChainMetadata } from '../../../fixtures/chains';
import { priceUsdMicrosOf } from '../../../fixtures/prices';
import { STABLECOIN, TOKEN_LOGO_URI } from '../../../fixtures/tokens';
import type { Currency } from '../../domain/chain/currency';
import type { SimulatorContracts } from './deploySimulatorContracts';

/** The chain's native currency (18 decimals on every EVM chain), priced from the fixtures. */
export function evmNativeCurrency(metadata: ChainMetadata): Currency {
  return {
    chainId: metadata.id,
    address: zeroAddress,
    symbol: metadata.nativeSymbol,
    name: metadata.nativeName,
    decimals: 18,
    isNative: true,
    logoURI: `${TOKEN_LOGO_URI}${metadata.nativeSymbol.toLowerCase()}.png`,
    verified: true,
    priceUsdMicros: priceUsdMicrosOf(metadata.nativeSymbol),
  };
}

/** The tokens the simulator deploys on the chain: the 6-decimal stablecoin and the wrapped native. */
export function evmErc20Currencies(metadata: ChainMetadata, contracts: SimulatorContracts): Currency[] {
  const wrappedSymbol = `W${metadata.nativeSymbol}`;
  return [
    {
      chainId: metadata.id,
      address: contracts.stablecoin,
      symbol: STABLECOIN.symbol,
      name: STABLECOIN.name,
      decimals: STABLECOIN.decimals,
      isNative: false,
      logoURI: `${TOKEN_LOGO_URI}usdc.png`,
      verified: true,
      priceUsdMicros: priceUsdMicrosOf(STABLECOIN.symbol),
    },
    {
      chainId: metadata.id,
      address: contracts.wrappedNative,
      symbol: wrappedSymbol,
      name: `Wrapped ${metadata.nativeName}`,
      decimals: 18,
      isNative: false,
      logoURI: `${TOKEN_LOGO_URI}${wrappedSymbol.toLowerCase()}.png`,
      verified: true,
      priceUsdMicros: priceUsdMicrosOf(wrappedSymbol),
    },
  ];
}
