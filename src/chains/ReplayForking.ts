import type { ChainAdapter } from './ChainAdapter';

/** Where a replay forks one chain (`intentsim replay`, docs/forking.md "Replaying a request"). */
export interface ReplayForkPoint {
  /** The upstream's URL as messages show it (its origin: a provider's path may hold an API key). */
  shownUrl: string;
  /** The block the fork starts from; null where the kind reads the upstream as it is now. */
  block: number | null;
  /** Whether the fork is pinned at `block` (false: the upstream's current state, and the report says so). */
  pinned: boolean;
}

/** Which fork point a chain of the record takes: the origin just before its deposit, the destination as it was at the deposit's time. */
export type ReplayForkAsk =
  | { chainId: number; url: string; role: 'origin'; depositBlock: number }
  | { chainId: number; url: string; role: 'destination'; atOrBeforeSeconds: number };

/**
 * What a kind of chain does for a replay: find the fork point, put the local solver where the
 * upstream's stood, and make the deposit again as the record's user. One entry per kind
 * (`replayForkings.ts`); each call returns notes (what it had to change) for the report. A kind
 * whose fork cannot be pinned (Solana, Bitcoin, Lighter) reads the upstream as it is now, so the
 * user and the solver are put back as the record needs them, and the notes say how.
 */
export interface ReplayForking {
  forkPoint(ask: ReplayForkAsk): Promise<ReplayForkPoint>;
  /**
   * Before the local quote, on the origin: gives the user back what the record's deposit spent,
   * where the fork reads the upstream after it (Bitcoin: the outputs it spent). Absent: nothing to do.
   */
  restoreDepositFunds?(params: { chainId: number; localChain: ChainAdapter; upstreamUrl: string; user: string; depositTxHash: string }): Promise<string[]>;
  /**
   * Gives the local solver, on the local (forked) chain, the upstream solver's balance of
   * `currency` at `block` (null: the fork is not pinned, the upstream's balance now).
   */
  standInForSolver(params: { chainId: number; localChain: ChainAdapter; localRpcUrl: string; upstreamUrl: string; block: number | null; upstreamSolver: string; localSolver: string; currency: string; native: boolean }): Promise<string[]>;
  /** Sends the quote's deposit items (SPEC §2.2 item `data`, in the kind's shape) from `from` on the local chain, impersonated; returns their hashes. */
  depositAs(params: { chainId: number; localChain: ChainAdapter; localRpcUrl: string; from: string; currency: string; native: boolean; amount: bigint; items: ReadonlyArray<Record<string, unknown>> }): Promise<{ txHashes: string[]; notes: string[] }>;
}
