import { keccak256, stringToHex, type Address } from 'viem';
import type { LvmLedger } from './LvmLedger';

/** Collateral each test account's exchange account starts with: 1,000,000 USDC (6 decimals). */
export const TEST_ACCOUNT_COLLATERAL = 1_000_000n * 10n ** 6n;
/** The solver's inventory on the exchange: 100,000,000 USDC. */
export const SOLVER_COLLATERAL = 100_000_000n * 10n ** 6n;

export interface LvmGenesisAccount {
  index: number;
  l1Address: Address;
  apiKey: string;
}

export interface LvmGenesis {
  /** Account 0: the exchange's own (fees go there). */
  treasury: LvmGenesisAccount;
  /** Account 1: the solver's, and the depository withdrawals pay into. */
  solver: LvmGenesisAccount;
  /** Accounts 2…: one master account per test account of the simulator, in order. */
  testAccounts: LvmGenesisAccount[];
}

/** An account's API key: 32 bytes from the mnemonic, the chain and the index (the same every start). */
export function lvmApiKey(mnemonic: string, chainId: number, index: number): string {
  return keccak256(stringToHex(`intentsim-lvm-api-key:${mnemonic}:${chainId}:${index}`)).slice(2);
}

/**
 * The exchange at start: the treasury (owned by the simulator's deployer), the solver's master
 * account (owned by the solver wallet's EVM address) and one funded master account per test
 * account (owned by its EVM address), each with its API key issued.
 */
export function writeLvmGenesis(
  ledger: LvmLedger,
  owners: { deployer: Address; solver: Address; testAccounts: readonly Address[] },
  keys: { mnemonic: string; chainId: number },
): LvmGenesis {
  const open = (l1Address: Address, collateral: bigint): LvmGenesisAccount => {
    const { index } = ledger.createMasterAccount(l1Address);
    ledger.fund(index, collateral);
    const apiKey = lvmApiKey(keys.mnemonic, keys.chainId, index);
    ledger.issueApiKey(index, apiKey);
    return { index, l1Address, apiKey };
  };
  const treasury = open(owners.deployer, 0n);
  const solver = open(owners.solver, SOLVER_COLLATERAL);
  const testAccounts = owners.testAccounts.map((address) => open(address, TEST_ACCOUNT_COLLATERAL));
  return { treasury, solver, testAccounts };
}
