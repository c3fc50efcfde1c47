import type { Address } from 'viem';

/** A currency on one chain, with its USD price from the price fixture (micro-USD per whole unit). */
export interface Currency {
  chainId: number;
  address: Address;
  symbol: string;
  name: string;
  decimals: number;
  isNative: boolean;
  logoURI: string;
  verified: boolean;
  /** USD price of one whole unit, in micro-USD (1 USD = 1_000_000). */
  priceUsdMicros: bigint;
}
