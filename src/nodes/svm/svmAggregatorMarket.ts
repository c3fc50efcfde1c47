import { getBase58Decoder, type Address } from '@solana/kit';
import { createHash } from 'node:crypto';

/**
 * The SVM chain's simulated swap market (SPEC §4.6 "tokens available through the aggregator"):
 * a few tokens beyond SOL, the stablecoin and wrapped SOL, pools between them at three pool
 * venues, and a third-party aggregator that routes an origin swap through those pools (or through
 * its own direct pools, when a quote names its source). Every address here is fixed (a hash of a
 * label), so the market is the same on every start; `writeSvmAggregatorGenesis` writes its
 * accounts into the ledger.
 */

/** The aggregator's name as a swap source (`includedOriginSwapSources`, `GET /swap-sources`). */
export const SVM_AGGREGATOR_SOURCE = 'intentsim-aggregator';

/** The pool venues the aggregator routes through, by source name. */
export const SVM_POOL_VENUES = ['intentsim-svm-constant-product', 'intentsim-svm-concentrated', 'intentsim-svm-stable'] as const;
export type SvmPoolVenue = (typeof SVM_POOL_VENUES)[number] | typeof SVM_AGGREGATOR_SOURCE;

/** A token only the aggregator's pools trade (its mint is written at genesis; prices in fixtures/prices.ts). */
export interface SvmMarketToken {
  symbol: string;
  name: string;
  decimals: number;
}

/** The tokens an SVM-origin quote takes through an origin swap. */
export const SVM_MARKET_TOKENS: readonly SvmMarketToken[] = [
  { symbol: 'MEME', name: 'Meme Coin', decimals: 5 },
  { symbol: 'GOV', name: 'Governance Token', decimals: 6 },
  { symbol: 'ORACLE', name: 'Oracle Token', decimals: 6 },
  { symbol: 'STSOL', name: 'Staked SOL', decimals: 9 },
];

/** The symbols the pools name besides the market tokens: the chain's own tokens. */
export const SVM_STABLECOIN_SYMBOL = 'USDC';
export const SVM_WRAPPED_NATIVE_SYMBOL = 'WSOL';

/** A pool: two tokens (by symbol) at a venue. */
export interface SvmPoolSpec {
  venue: SvmPoolVenue;
  tokenA: string;
  tokenB: string;
}

/**
 * The pools. The venues' pools connect every market token to the stablecoin through several
 * intermediate tokens (so the longest route is long); the aggregator's own pools go straight from
 * each market token to the stablecoin.
 */
export const SVM_POOLS: readonly SvmPoolSpec[] = [
  { venue: 'intentsim-svm-constant-product', tokenA: 'MEME', tokenB: 'GOV' },
  { venue: 'intentsim-svm-constant-product', tokenA: 'GOV', tokenB: 'ORACLE' },
  { venue: 'intentsim-svm-constant-product', tokenA: 'ORACLE', tokenB: 'STSOL' },
  { venue: 'intentsim-svm-constant-product', tokenA: 'WSOL', tokenB: 'USDC' },
  { venue: 'intentsim-svm-constant-product', tokenA: 'MEME', tokenB: 'WSOL' },
  { venue: 'intentsim-svm-concentrated', tokenA: 'MEME', tokenB: 'ORACLE' },
  { venue: 'intentsim-svm-concentrated', tokenA: 'GOV', tokenB: 'STSOL' },
  { venue: 'intentsim-svm-concentrated', tokenA: 'ORACLE', tokenB: 'WSOL' },
  { venue: 'intentsim-svm-concentrated', tokenA: 'GOV', tokenB: 'USDC' },
  { venue: 'intentsim-svm-stable', tokenA: 'STSOL', tokenB: 'WSOL' },
  { venue: 'intentsim-svm-stable', tokenA: 'ORACLE', tokenB: 'USDC' },
  ...SVM_MARKET_TOKENS.map((token) => ({ venue: SVM_AGGREGATOR_SOURCE, tokenA: token.symbol, tokenB: 'USDC' }) as const),
];

/** Each label's address, computed once (the genesis asks for a mint's ~15 times, base58 is BigInt arithmetic). */
const marketAddresses = new Map<string, Address>();

/** A fixed address for `label`: 32 bytes of its hash, in base58 (an account written at genesis, with no key). */
export function svmMarketAddress(label: string): Address {
  let address = marketAddresses.get(label);
  if (address === undefined) {
    address = getBase58Decoder().decode(createHash('sha256').update(`intentsim-svm-market:${label}`).digest()) as Address;
    marketAddresses.set(label, address);
  }
  return address;
}

/** A pool with its accounts, as an aggregator's route instruction names them. */
export interface SvmPool extends SvmPoolSpec {
  /** The pool's state account (owned by its venue's program). */
  state: Address;
  /** The pool's authority: owner of its two vaults. */
  authority: Address;
  vaultA: Address;
  vaultB: Address;
  /** The venue's program. */
  program: Address;
}

export const SVM_AGGREGATOR_PROGRAM = svmMarketAddress('aggregator-program');
/** The aggregator's authority: owner of its shared intermediate token accounts. */
export const SVM_AGGREGATOR_AUTHORITY = svmMarketAddress('aggregator-authority');

export function svmVenueProgram(venue: SvmPoolVenue): Address {
  return venue === SVM_AGGREGATOR_SOURCE ? SVM_AGGREGATOR_PROGRAM : svmMarketAddress(`venue-program:${venue}`);
}

export function svmMarketMint(symbol: string): Address {
  return svmMarketAddress(`mint:${symbol}`);
}

/** The aggregator's own token account for `symbol`: where a route's intermediate amounts pass. */
export function svmAggregatorSharedAccount(symbol: string): Address {
  return svmMarketAddress(`aggregator-shared:${symbol}`);
}

export const SVM_MARKET_POOLS: readonly SvmPool[] = SVM_POOLS.map((spec) => {
  const label = `pool:${spec.venue}:${spec.tokenA}-${spec.tokenB}`;
  return {
    ...spec,
    state: svmMarketAddress(label),
    authority: svmMarketAddress(`${label}:authority`),
    vaultA: svmMarketAddress(`${label}:vault:${spec.tokenA}`),
    vaultB: svmMarketAddress(`${label}:vault:${spec.tokenB}`),
    program: svmVenueProgram(spec.venue),
  };
});
