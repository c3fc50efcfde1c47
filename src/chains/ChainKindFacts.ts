import type { VmType } from '../domain/chain/chainDescription';

/** A deposit in another currency than the quoted one, as a scenario's `deposit` step pays it (a type, so it is a scenario step's record). */
export type OtherCurrencyDeposit = {
  currency: string;
  amount: string;
};

/**
 * What a kind of chain is, known before any adapter exists (the configuration and
 * `scenario from-record` ask it): each VM's adapter folder states its own (`chains/<vm>/<vm>KindFacts.ts`),
 * and `chainKindFacts` (chainKinds.ts) finds a kind's. Code outside chains/ asks these facts
 * instead of comparing `vmType`s.
 */
export interface ChainKindFacts {
  /** SPEC §2.1 `vmType`, for messages. */
  vmType: VmType;
  /** How a request record (SPEC §2.3) from any deployment names the kind's native currency (EVM's zero address, Solana's system program, Bitcoin's BTC identifier, the exchange's asset `0`). */
  recordNativeAddress: RegExp;
  /** Whether a deployment's stablecoins (USDC, USDT, …) stand in as the local chain's USDC (Bitcoin has none). */
  hasStablecoin: boolean;
  /** The local wrapped native, and the symbols a deployment may give it. */
  wrappedNative?: { local: string; symbols: readonly string[] };
  /** The currencies the kind's local chains have, in words. */
  localCurrencies: string;
  /** A deposit in another currency than quoted (INCORRECT_DEPOSIT_CURRENCY), when the quoted one is native or a token; absent where the chain has one currency. */
  otherCurrencyDeposit?: { forNative: OtherCurrencyDeposit; forToken: OtherCurrencyDeposit };
  /** The user a scenario quotes and pays as: EVM test account 0, or account 0 of the chain's own funded keys. */
  scenarioUser: number | string;
  /** Blocks come only when asked (a scenario's `mine` step): a deposit waits in the mempool, pending, until a block confirms it. */
  minesOnRequest: boolean;
  /** Quotes may be paid to a deposit address (Solana's are paid through the quote's steps). */
  hasDepositAddresses: boolean;
  /** A user can spend a deposit's inputs again while it waits in the mempool (DOUBLE_SPEND). */
  doubleSpendsDeposits: boolean;
  /** What a reorg does to a deposit: it is gone (`lost`), it returns to the mempool and is mined again (`mempool`), or the chain has no reorgs (`none`). */
  depositReorg: 'lost' | 'mempool' | 'none';
  /** Other local chains of the kind a deposit on the wrong chain (DEPOSIT_CHAIN_MISMATCH) can land on. */
  wrongChainDepositChains: readonly number[];
  /** Deposits may be told to wait for more than one confirmation (`depositConfirmations`); else the kind fills after its first. */
  countsDepositConfirmations: boolean;
  /**
   * How a chain of the kind runs as a fork of an upstream (`--fork CHAIN=URL`, docs/forking.md): what
   * the URL names, whether a block can be pinned (`--fork-block`), and whether it runs with `--db`
   * (journaled, so a restart comes back to the same state).
   */
  fork: ForkFacts;
  /**
   * The servers a client of a chain of this kind reaches, in port order: with `--chain-port CHAIN=PORT`
   * the first listens on PORT, the second on PORT+1 (docs/shared-host.md ("Ports")).
   */
  clientServers: readonly string[];
}

/** How a kind of chain forks an upstream (ChainKindFacts.fork). */
export interface ForkFacts {
  /** What `--fork CHAIN=URL` names, for messages and docs: e.g. `a JSON-RPC URL`. */
  upstream: string;
  /** `--fork-block` pins the upstream's state at a block; else the upstream's current state is read as it is asked for. */
  pinsBlock: boolean;
  /**
   * With `--db` the fork is journaled and a restart comes back to the same state: Solana, Bitcoin
   * and Lighter journal what they read (a restart asks the upstream nothing); an EVM fork journals
   * its pinned block and its local blocks (a restart forks that block again and mines them on it).
   */
  journaled: boolean;
}
