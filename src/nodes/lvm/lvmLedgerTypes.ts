import type { Address, Hex } from 'viem';

// The exchange ledger's shapes (LvmLedger.ts): accounts, transfers, what a fork read, what is journaled.

/** An account of the exchange: a master account (its own index) or a sub-account of one. */
export interface LvmAccount {
  index: number;
  /** The EVM address that owns it (the exchange's `l1_address`). */
  l1Address: Address;
  kind: 'master' | 'sub';
  /** The master account (itself for a master account). */
  masterIndex: number;
  /** USDC in the perpetuals route: the account's collateral, smallest unit. */
  collateral: bigint;
  /** Spot balances by asset index. */
  spot: Map<number, bigint>;
  /** The last transfer nonce used. */
  nonce: number;
  /** A paused account sends and receives nothing (`ACCOUNT_PAUSED`) until it is unpaused (`controlAccount`). */
  paused: boolean;
  /** Its API key no longer opens it (`INVALID_API_KEY`) until it is restored (`controlAccount`). */
  apiKeyRevoked: boolean;
}

/** What the control plane changes of an account (each field left out stays as it is). */
export interface LvmAccountControls {
  paused?: boolean;
  apiKeyRevoked?: boolean;
  /** The account's USDC collateral, set outright (as Anvil's setBalance sets an EVM balance). */
  collateral?: bigint;
}

/** What a transfer asks for (SPEC §4.6 action parameters, plus who sends it). */
export interface LvmTransferParams {
  fromAccountIndex: number;
  toAccountIndex: number;
  assetIndex: number;
  fromRouteType: number;
  toRouteType: number;
  amount: bigint;
  usdcFee: bigint;
  /** 32 bytes as 0x-hex (a request id); zero when absent. */
  memo?: Hex;
  /** Must be above the account's last nonce; the next one when absent. */
  nonce?: number;
}

/** A transfer the exchange executed. Its hash is bare hex (64 characters, no 0x), as the exchange shows it. */
export interface LvmTransaction extends Required<LvmTransferParams> {
  hash: string;
  type: 'transfer';
  blockHeight: number;
  /** Bare hex, like the hash. */
  blockHash: string;
  /** Unix milliseconds (virtual clock). */
  executedAt: number;
  /** Its place among every transaction the exchange executed, from 1 (the API's `sequence_index`). */
  sequenceIndex: number;
}


/** An account a fork read from its upstream exchange, as the upstream showed it (`LvmReadThrough`). */
export interface LvmUpstreamAccount {
  index: number;
  l1Address: Address;
  kind: 'master' | 'sub';
  masterIndex: number;
  collateral: bigint;
  /** Spot balances by asset index (those not zero). */
  spot: Array<[number, bigint]>;
  nonce: number;
}

/**
 * A change the ledger made, as plain data: what a journal keeps to make the same ledger again
 * (`LvmLedgerJournal`). The ledger hands each to its recorder before the change takes effect and
 * before any listener or caller hears of it.
 */
export type LvmLedgerChange =
  | { kind: 'masterAccount'; index: number; l1Address: Address }
  | { kind: 'subAccount'; index: number; masterIndex: number }
  | { kind: 'fund'; index: number; amount: bigint }
  | { kind: 'apiKey'; index: number; key: string }
  | { kind: 'transfer'; transfer: Required<LvmTransferParams>; hash: string; executedAt: number }
  | { kind: 'mine'; blocks: number }
  | { kind: 'nextTimestamp'; ms: number }
  | { kind: 'snapshot'; id: string }
  | { kind: 'revert'; id: string }
  | { kind: 'accountControls'; index: number; controls: LvmAccountControls }
  /** A fork read accounts unknown here from its upstream (by index or by owner), as they were there. */
  | { kind: 'upstreamAccounts'; accounts: LvmUpstreamAccount[] };
