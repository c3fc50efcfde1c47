import type { Currency } from '../../domain/chain/currency';
import type { UserSendOptions, UserTransaction } from './UserWallet';

/** What a contract call is encoded against: a fixture contract's ABI (fixtures/contracts, by name) or one of the chain's currencies. */
export type ContractAbiRef = { fixture: string } | { currency: Currency };

/** A signature a contract checks, whole and in the parts the chain's calls take (EVM: `v`, `r`, `s`). */
export interface ContractSignature {
  signature: string;
  parts: Record<string, string | number>;
}

/**
 * Contracts a user deploys and drives (scenarios: the targets of Call requests' destination
 * calls), and the blocklist of the simulator's stablecoin issuer; EVM chains only.
 */
export interface FixtureContractsCapability {
  /** Deploys fixture contract `name` (fixtures/contracts) with `args` from the account, and returns its address once mined. */
  deploy(privateKey: string, name: string, args: readonly unknown[]): Promise<string>;
  /** The calldata of `functionName(args)` on a contract (arguments as JSON: integers as numbers or decimal strings, structs as objects). */
  encodeContractCall(contract: ContractAbiRef, functionName: string, args: readonly unknown[]): string;
  /** Signs a message fixture contract `contract` checks (`type`: e.g. `Order`, `Permit`, `UserOperation`) with the account's key. */
  signContractMessage(privateKey: string, contract: { fixture: string; address: string }, type: string, message: Record<string, unknown>): Promise<ContractSignature>;
  /**
   * The issuer of `currency` (the simulator's stablecoin) adds `account` to its blocklist or takes
   * it off: transfers to or from it revert. `aheadOfPending` as for a user's transaction.
   */
  setBlockedByIssuer(currency: Currency, account: string, blocked: boolean, options?: UserSendOptions): Promise<UserTransaction>;
}
