/** A funded account of a node started alone, as `intentsim node` prints it. */
export interface FundedNodeAccount {
  /** The account's address on that chain (an account index on the exchange). */
  address: string;
  /** What signs for it: a private key (hex on SVM as a base58 64-byte secret, WIF on Bitcoin), or the exchange's API key. */
  privateKey: string;
  /** Its balance at genesis, with the unit (`1000000 USDC`). */
  balance: string;
  /** The EVM address that owns it (exchange accounts). */
  owner?: string;
}

/** An embedded node running alone: where its RPC is, who is funded, and how to stop it. */
export interface StartedNode {
  kind: 'svm' | 'bitcoin' | 'exchange';
  chainId: number;
  /** Its JSON-RPC URL (the exchange: its HTTP API's base URL). */
  rpcUrl: string;
  fundedAccounts: FundedNodeAccount[];
  /** Closes its servers and timers; the process can exit after it. */
  stop(): Promise<void>;
}
