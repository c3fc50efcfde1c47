import type { Currency } from '../../domain/chain/currency';

/** A transaction a user's wallet sent (`sent`: not waited for, e.g. while automine is off). */
export interface UserTransaction {
  txHash: string;
  status: 'success' | 'failure' | 'sent';
  blockNumber?: number;
}

/** How a user's wallet sends a transaction. */
export interface UserSendOptions {
  /** Wait for the receipt (default true); false while automine is off. */
  wait?: boolean;
  /**
   * Pay fees above anything waiting in the pool, so the next block mines it first (a change made
   * ahead of a fill held in the mempool while automine is off).
   */
  aheadOfPending?: boolean;
}

/**
 * A user's wallet on a chain (scenarios, conformance runs): what an integrator's app sends, signed
 * with a test account's key in the chain's own encoding.
 */
export interface UserWallet {
  /** Sends one transaction step item (SPEC §2.2 item `data`) from the account; waits for the receipt when `wait` (default true). */
  sendUserTransaction(privateKey: string, item: Record<string, unknown>, options?: UserSendOptions): Promise<UserTransaction>;
  /** Transfers `amount` of `currency` from the account to `to` (a deposit-address payment, a stray transfer). */
  transferFromUser(privateKey: string, to: string, currency: Currency, amount: bigint, options?: { wait?: boolean }): Promise<UserTransaction>;
  /** A stable address of this chain's kind named by `label` (fresh recipients in scenarios). */
  addressForLabel(label: string): string;
}
