/**
 * A user double-spending their own transaction (a deposit), on the chains where a transaction can
 * be replaced before it is final (Bitcoin-style: docs/chains/bitcoin.md); absent on the others.
 */
export interface DoubleSpendCapability {
  /**
   * Spends the inputs of the account's transaction `txHash` again, back to the account with a
   * higher fee, signed with `privateKey`: while `txHash` waits in the mempool, as a replacement
   * (replace-by-fee); with `inReorgOfDepth`, mined in the first block of a competing branch that
   * replaces the last `inReorgOfDepth` blocks (`txHash` mined in one of them). Returns the
   * conflicting transaction's hash.
   */
  doubleSpend(privateKey: string, txHash: string, options?: { inReorgOfDepth?: number }): Promise<string>;
}
