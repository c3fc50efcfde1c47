import { mnemonicSeed } from '../../keys/mnemonicSeed';
import { deriveSvmKeypair, type SvmKeypair } from './deriveSvmKeypair';

/**
 * The SVM chain's keys, all from the simulator's mnemonic (m/44'/501'/i'/0'): indexes
 * 0..count-1 are the funded test accounts, then the simulator's own roles at fixed indexes, so
 * every address is the same on every run with the same mnemonic.
 */
export interface SvmAccounts {
  testAccounts: SvmKeypair[];
  /** Pays fills and refunds. */
  solver: SvmKeypair;
  /** Mint authority of the stablecoin. */
  issuer: SvmKeypair;
  /** Pays `requestAirdrop`. */
  faucet: SvmKeypair;
  /** Receives deposits (SOL into the account, tokens into its associated token accounts). */
  depository: SvmKeypair;
  /** The stablecoin mint's address (the key of the account the mint lives in). */
  stablecoinMint: SvmKeypair;
}

export const SVM_ROLE_INDEXES = { solver: 1000, issuer: 1001, faucet: 1002, depository: 1003, stablecoinMint: 1004 } as const;

export async function deriveSvmAccounts(mnemonic: string, count: number): Promise<SvmAccounts> {
  const seed = mnemonicSeed(mnemonic);
  const at = (index: number) => deriveSvmKeypair(seed, index);
  const [testAccounts, solver, issuer, faucet, depository, stablecoinMint] = await Promise.all([
    Promise.all(Array.from({ length: count }, (_, i) => at(i))),
    at(SVM_ROLE_INDEXES.solver),
    at(SVM_ROLE_INDEXES.issuer),
    at(SVM_ROLE_INDEXES.faucet),
    at(SVM_ROLE_INDEXES.depository),
    at(SVM_ROLE_INDEXES.stablecoinMint),
  ]);
  return { testAccounts, solver, issuer, faucet, depository, stablecoinMint };
}
