/** What the control plane changes of an exchange account; a field left out stays as it is. */
export interface ExchangeAccountChange {
  /** A paused account sends and receives nothing: the exchange refuses its transfers with `ACCOUNT_PAUSED`. */
  paused?: boolean;
  /** A revoked API key opens nothing: the exchange refuses it with `INVALID_API_KEY`. */
  apiKeyRevoked?: boolean;
  /** The account's collateral, set outright (smallest unit). */
  collateral?: bigint;
}

/** An exchange account as the control plane left it. */
export interface ExchangeAccountState {
  /** The account index, as a decimal string (an address on the exchange). */
  account: string;
  paused: boolean;
  apiKeyRevoked: boolean;
  collateral: bigint;
}

/**
 * The exchange's account faults (docs/chains/lighter.md "Faults"): a capability only the exchange
 * chain has, so the control plane and scenario steps reach it as `chain.exchangeAccounts`.
 */
export interface ExchangeAccountControls {
  /** Applies `change` to the account (journaled with `--db`, undone by a revert); throws what the exchange refuses (no such account). */
  setAccount(account: string, change: ExchangeAccountChange): ExchangeAccountState;
}
