import type { Currency } from './currency';

/** The kind of virtual machine a chain runs (SPEC §2.1 `vmType`). */
export const VM_TYPES = ['evm', 'svm', 'bvm', 'lvm'] as const;
export type VmType = (typeof VM_TYPES)[number];

/**
 * SPEC §2.1 explorer fields: the simulator's own explorer pages (src/domain/chain/explorerLinks.ts),
 * absolute, so they depend on the URL a client reached the API by; not part of what a chain describes.
 */
export interface ChainExplorerLinks {
  explorerUrl: string;
  explorerName: string;
  /** Relative to `explorerUrl`; placeholders `{TX_HASH}`, `{ADDRESS}`, `{BLOCK}`. */
  explorerPaths: { transaction: string; address: string; token: string; block: string };
}

/** SPEC §2.1 fields a chain describes about itself for `GET /chains` and the start summary. */
export interface ChainDescription {
  id: number;
  name: string;
  displayName: string;
  vmType: VmType;
  httpRpcUrl: string;
  wsRpcUrl: string;
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
  fundedAccounts?: Array<{ address: string; privateKey: string; owner?: string }>;
  /** What the start summary says of those accounts (their funds, the keys' encoding). */
  fundedAccountsNote?: string;
  /**
   * URLs a client of the chain needs beside its RPC and websocket, by the name `intentsim start --json`
   * gives each (Bitcoin: `esploraUrl`, its Esplora REST API; Lighter: `apiUrl`, the exchange's HTTP API).
   */
  clientUrls?: Record<string, string>;
  /** The chain runs as a fork of an upstream (`--fork`): its URL, and what the summary says of it (when it is read, whether it is pinned). */
  fork?: { url: string; note: string };
}

/**
 * SPEC §2.1 `contracts` of a chain with no EVM contracts (SVM, the exchange, Bitcoin-style): each
 * field names the one account that takes deposits.
 */
export function contractsAllAt(address: string): ChainDescription['contracts'] {
  return {
    multicall3: address,
    multicaller: address,
    onlyOwnerMulticaller: address,
    serviceReceiver: address,
    erc20Router: address,
    approvalProxy: address,
    v3: { erc20Router: address, approvalProxy: address },
  };
}
