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
 * upstream's stood, and make the deposit again as the record's user. One entry per kind that can
 * replay (the table below); a kind without one is refused in one line. Each call returns notes
 * (what it had to change) for the report.
 */
export interface ReplayForking {
  forkPoint(ask: ReplayForkAsk): Promise<ReplayForkPoint>;
  /** Gives the local solver, on the local (forked) chain, the upstream solver's balance of `currency` at `block`. */
  standInForSolver(params: { chainId: number; localRpcUrl: string; upstreamUrl: string; block: number; upstreamSolver: string; localSolver: string; currency: string; native: boolean }): Promise<string[]>;
  /** Sends the quote's deposit items from `from` on the local chain, impersonated; returns their hashes. */
  depositAs(params: { chainId: number; localRpcUrl: string; from: string; items: ReadonlyArray<{ to: string; data: string; value: string }> }): Promise<{ txHashes: string[]; notes: string[] }>;
}
