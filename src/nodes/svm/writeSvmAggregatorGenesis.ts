import { TOKEN_PROGRAM_ADDRESS, getMintDecoder, getMintEncoder } from '@solana-program/token';
import { address, getAddressEncoder, lamports, none, some, type Address } from '@solana/kit';
import { priceUsdMicrosOf } from '../../../fixtures/prices';
import { ChainError } from '../../errors/IntentsimError';
import type { SvmLedger } from './SvmLedger';
import type { SvmAccounts } from './svmAccounts';
import {
  SVM_AGGREGATOR_AUTHORITY,
  SVM_AGGREGATOR_PROGRAM,
  SVM_MARKET_POOLS,
  SVM_MARKET_TOKENS,
  SVM_POOL_VENUES,
  SVM_STABLECOIN_SYMBOL,
  SVM_WRAPPED_NATIVE_SYMBOL,
  svmAggregatorSharedAccount,
  svmMarketMint,
  svmVenueProgram,
} from './svmAggregatorMarket';
import { genesisAssociatedTokenAccount } from './writeSvmGenesis';
import { genesisTokenAccountWriter } from './genesisTokenAccounts';
import { MINT_SIZE, NATIVE_MINT, TOKEN_ACCOUNT_SIZE } from './svmProgramIds';

/** SPL Memo v1, preloaded by LiteSVM: it ignores its accounts and requires UTF-8 data. */
export const MEMO_V1_PROGRAM = address('Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo');

/** What each holder gets of every market token, in USD at fixture prices. */
const TEST_ACCOUNT_USD = 100_000n;
const SOLVER_USD = 10_000_000n;
/** Each side of each pool holds this much, in USD at fixture prices. */
const POOL_SIDE_USD = 5_000_000n;

/** `usd` worth of a token of `decimals` at its fixture price, in its smallest unit. */
function unitsWorth(usd: bigint, symbol: string, decimals: number): bigint {
  return (usd * 1_000_000n * 10n ** BigInt(decimals)) / priceUsdMicrosOf(symbol);
}

/**
 * The aggregator market's accounts at genesis (`svmAggregatorMarket`), written after
 * `writeSvmGenesis`: the market tokens' mints (authority: the stablecoin's issuer) and every test
 * account's, the solver's and the depository's associated token accounts of them; the aggregator's
 * and the venues' programs; each pool's state and its two vaults with reserves; the aggregator's
 * shared intermediate token accounts.
 *
 * The programs are copies of SPL Memo v1 (no SBF toolchain builds a real AMM here): an
 * aggregator route's instructions then execute for real on LiteSVM, every account they name is a
 * real account of the right owner (a pool's authority is a bare address, as a program-derived
 * authority is), and they move nothing; the user's tokens move by the deposit.
 */
export async function writeSvmAggregatorGenesis(ledger: SvmLedger, accounts: SvmAccounts): Promise<void> {
  const memo = ledger.account(MEMO_V1_PROGRAM);
  if (!memo.exists) throw new ChainError('LiteSVM did not preload SPL Memo v1: the aggregator program cannot be written');
  for (const program of [SVM_AGGREGATOR_PROGRAM, ...SVM_POOL_VENUES.map(svmVenueProgram)]) ledger.setAccount({ ...memo, address: program });

  const rent = (size: number) => ledger.svm.minimumBalanceForRentExemption(BigInt(size));
  const stablecoinMint = accounts.stablecoinMint.address;
  const decimalsOf = new Map<string, number>([[SVM_STABLECOIN_SYMBOL, 6], [SVM_WRAPPED_NATIVE_SYMBOL, 9], ...SVM_MARKET_TOKENS.map((token) => [token.symbol, token.decimals] as const)]);
  const mintOf = (symbol: string): Address => (symbol === SVM_STABLECOIN_SYMBOL ? stablecoinMint : symbol === SVM_WRAPPED_NATIVE_SYMBOL ? NATIVE_MINT : svmMarketMint(symbol));
  const minted = new Map<string, bigint>();
  const tokenAccountData = genesisTokenAccountWriter();
  const writeTokenAccount = (at: Address, owner: Address, symbol: string, amount: bigint) => {
    const native = symbol === SVM_WRAPPED_NATIVE_SYMBOL;
    minted.set(symbol, (minted.get(symbol) ?? 0n) + amount);
    ledger.setAccount({
      address: at,
      lamports: lamports(rent(TOKEN_ACCOUNT_SIZE) + (native ? amount : 0n)),
      programAddress: TOKEN_PROGRAM_ADDRESS,
      executable: false,
      space: BigInt(TOKEN_ACCOUNT_SIZE),
      data: tokenAccountData({ mint: mintOf(symbol), owner, amount, ...(native ? { nativeRentReserve: rent(TOKEN_ACCOUNT_SIZE) } : {}) }),
    });
  };

  const holders = [
    ...accounts.testAccounts.map((account) => ({ owner: account.address, usd: TEST_ACCOUNT_USD })),
    { owner: accounts.solver.address, usd: SOLVER_USD },
    { owner: accounts.depository.address, usd: 0n },
  ];
  for (const token of SVM_MARKET_TOKENS) {
    for (const holder of holders) writeTokenAccount(await genesisAssociatedTokenAccount(holder.owner, mintOf(token.symbol)), holder.owner, token.symbol, unitsWorth(holder.usd, token.symbol, token.decimals));
  }
  for (const pool of SVM_MARKET_POOLS) {
    ledger.setAccount({
      address: pool.state,
      lamports: lamports(rent(POOL_STATE_SIZE)),
      programAddress: pool.program,
      executable: false,
      space: BigInt(POOL_STATE_SIZE),
      data: poolStateData([mintOf(pool.tokenA), mintOf(pool.tokenB), pool.vaultA, pool.vaultB, pool.authority]),
    });
    for (const [vault, symbol] of [[pool.vaultA, pool.tokenA], [pool.vaultB, pool.tokenB]] as const) {
      writeTokenAccount(vault, pool.authority, symbol, unitsWorth(POOL_SIDE_USD, symbol, decimalsOf.get(symbol)!));
    }
  }
  for (const symbol of decimalsOf.keys()) writeTokenAccount(svmAggregatorSharedAccount(symbol), SVM_AGGREGATOR_AUTHORITY, symbol, 0n);

  // the mints: the market tokens' new, the stablecoin's supply grown by what the pools hold
  for (const token of SVM_MARKET_TOKENS) {
    ledger.setAccount({
      address: mintOf(token.symbol),
      lamports: lamports(rent(MINT_SIZE)),
      programAddress: TOKEN_PROGRAM_ADDRESS,
      executable: false,
      space: BigInt(MINT_SIZE),
      data: new Uint8Array(
        getMintEncoder().encode({ mintAuthority: some(accounts.issuer.address), supply: minted.get(token.symbol) ?? 0n, decimals: token.decimals, isInitialized: true, freezeAuthority: none() }),
      ),
    });
  }
  const stablecoin = ledger.account(stablecoinMint);
  if (stablecoin.exists) {
    const mint = getMintDecoder().decode(stablecoin.data);
    ledger.setAccount({ ...stablecoin, data: new Uint8Array(getMintEncoder().encode({ ...mint, supply: mint.supply + (minted.get(SVM_STABLECOIN_SYMBOL) ?? 0n) })) });
  }
}

/** A pool's state account: its two mints, two vaults and authority (32 bytes each). */
const POOL_STATE_SIZE = 5 * 32;

function poolStateData(addresses: readonly Address[]): Uint8Array {
  const encoder = getAddressEncoder();
  const data = new Uint8Array(POOL_STATE_SIZE);
  addresses.forEach((at, index) => data.set(encoder.encode(at), index * 32));
  return data;
}
