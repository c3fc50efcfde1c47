import type { Currency } from './currency';

/** The kind of virtual machine a chain runs (SPEC §2.1 `vmType`). */
export const VM_TYPES = ['evm', 'svm', 'bvm', 'lvm'] as const;
export type VmType = (typeof VM_TYPES)[number];

/** SPEC §2.1 fields a chain describes about itself for `GET /chains` and the start summary. */
export interface ChainDescription {
  id: number;
  name: string;
  displayName: string;
  vmType: VmType;
  httpRpcUrl: string;
  wsRpcUrl: string;
  explorerUrl: string;
  explorerName: string;
  explorerPaths: { transaction: string; address: string; token: string };
  nativeCurrency: Currency;
  erc20Currencies: Currency[];
  contracts: {
    multicall3: string;
    multicaller: string;
    onlyOwnerMulticaller: string;
    serviceReceiver: string;
    erc20Router: string;
    approvalProxy: string;
    v3: { erc20Router: string; approvalProxy: string };
  };
  depository: string;
  solverAddress: string;
  /** The simulator's own contracts on this chain, labelled for the start summary (not part of §2.1). */
  summaryContracts: Array<{ label: string; address: string; note?: string }>;
  logFile: string;
  /**
   * Funded accounts of the chain's own kind, keys in the chain's usual encoding (a non-EVM chain's;
   * EVM chains share the simulator's accounts, listed once at the top of the start summary).
   */
  fundedAccounts?: Array<{ address: string; privateKey: string }>;
  /** What each funded account holds and how its key is written, for the start summary. */
  fundedAccountsNote?: string;
}
