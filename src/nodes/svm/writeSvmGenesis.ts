import { findAssociatedTokenPda, getMintEncoder, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { lamports, some, type Address } from '@solana/kit';
import { startDerivationCache } from '../../keys/startDerivationCache';
import type { SvmLedger } from './SvmLedger';
import type { SvmAccounts } from './svmAccounts';
import { genesisTokenAccountWriter } from './genesisTokenAccounts';
import { MINT_SIZE, NATIVE_MINT, TOKEN_ACCOUNT_SIZE } from './svmProgramIds';

const SOL = 1_000_000_000n;
/** What each test account holds at genesis (SOL, stablecoin units of 6 decimals, wrapped SOL). */
export const SVM_TEST_ACCOUNT_FUNDS = { lamports: 1_000n * SOL, stablecoin: 1_000_000n * 10n ** 6n, wrappedSol: 100n * SOL } as const;
/** The solver's float on the SVM chain. */
export const SVM_SOLVER_FUNDS = { lamports: 100_000n * SOL, stablecoin: 100_000_000n * 10n ** 6n, wrappedSol: 10_000n * SOL } as const;

/** Derived addresses kept (the solver's, the depository's and recent recipients' token accounts). */
const KEPT_TOKEN_ACCOUNTS = 4096;
const tokenAccounts = new Map<string, Promise<Address>>();

/**
 * The associated token account of `owner` for `mint` (SPL Token program). Deriving one costs about
 * a millisecond (hashes and curve checks over the bump seeds), and every fill, deposit step and
 * balance read derives the same few again: each is derived once and kept.
 */
export function associatedTokenAccount(owner: Address, mint: Address): Promise<Address> {
  const key = `${owner}:${mint}`;
  const kept = tokenAccounts.get(key);
  if (kept) return kept;
  const derived = findAssociatedTokenPda({ owner, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS }).then(([ata]) => ata);
  derived.catch(() => tokenAccounts.delete(key));
  if (tokenAccounts.size >= KEPT_TOKEN_ACCOUNTS) tokenAccounts.delete(tokenAccounts.keys().next().value!);
  tokenAccounts.set(key, derived);
  return derived;
}

/**
 * `associatedTokenAccount` for the genesis: a program-derived address costs milliseconds of
 * pure-JavaScript curve checks and the genesis derives dozens, the same at every start, so those
 * of an earlier start are reused (the start's derivation cache, saved by `SvmNode` once genesis is written).
 */
export async function genesisAssociatedTokenAccount(owner: Address, mint: Address): Promise<Address> {
  const derived = await startDerivationCache().valueAsync('svm-associated-token-account', [Buffer.from(owner), Buffer.from(mint)], async () => Buffer.from(await associatedTokenAccount(owner, mint)));
  return Buffer.from(derived).toString('utf8') as Address;
}

/**
 * The chain's genesis state, written straight into the ledger (as a validator's genesis config
 * does): the stablecoin mint, funded test accounts and solver (SOL, stablecoin and wrapped SOL in
 * their associated token accounts), and the depository with its token accounts.
 */
export async function writeSvmGenesis(ledger: SvmLedger, accounts: SvmAccounts): Promise<void> {
  const mint = accounts.stablecoinMint.address;
  const tokenRent = ledger.svm.minimumBalanceForRentExemption(BigInt(TOKEN_ACCOUNT_SIZE));
  const holders = [
    ...accounts.testAccounts.map((account) => ({ owner: account.address, funds: SVM_TEST_ACCOUNT_FUNDS })),
    { owner: accounts.solver.address, funds: SVM_SOLVER_FUNDS },
    { owner: accounts.depository.address, funds: { lamports: SOL, stablecoin: 0n, wrappedSol: 0n } },
    { owner: accounts.issuer.address, funds: { lamports: 10n * SOL, stablecoin: 0n, wrappedSol: 0n } },
  ];
  const supply = holders.reduce((sum, holder) => sum + holder.funds.stablecoin, 0n);
  ledger.setAccount({
    address: mint,
    lamports: lamports(ledger.svm.minimumBalanceForRentExemption(BigInt(MINT_SIZE))),
    programAddress: TOKEN_PROGRAM_ADDRESS,
    executable: false,
    space: BigInt(MINT_SIZE),
    data: new Uint8Array(getMintEncoder().encode({ mintAuthority: some(accounts.issuer.address), supply, decimals: 6, isInitialized: true, freezeAuthority: some(accounts.issuer.address) })),
  });
  const tokenAccountData = genesisTokenAccountWriter();
  const tokenAccount = (owner: Address, tokenMint: Address, amount: bigint, native: boolean) => tokenAccountData({ mint: tokenMint, owner, amount, ...(native ? { nativeRentReserve: tokenRent } : {}) });
  for (const { owner, funds } of holders) {
    ledger.setLamports(owner, funds.lamports);
    for (const [tokenMint, amount, native] of [
      [mint, funds.stablecoin, false],
      [NATIVE_MINT, funds.wrappedSol, true],
    ] as const) {
      ledger.setAccount({
        address: await genesisAssociatedTokenAccount(owner, tokenMint),
        lamports: lamports(tokenRent + (native ? amount : 0n)),
        programAddress: TOKEN_PROGRAM_ADDRESS,
        executable: false,
        space: BigInt(TOKEN_ACCOUNT_SIZE),
        data: tokenAccount(owner, tokenMint, amount, native),
      });
    }
  }
}
