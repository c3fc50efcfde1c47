import type { Address, Hex, LocalAccount, PublicClient } from 'viem';
import { waitForReceipt } from './waitForReceipt';

export interface PlainTransaction {
  to?: Address;
  data?: Hex;
  value?: bigint;
  gas: bigint;
}

/**
 * Signs a batch of transactions locally with consecutive nonces and sends them without waiting
 * for each one, then checks every receipt succeeded. Used at start-up to deploy and fund.
 */
export async function sendRawTransactions(params: {
  client: PublicClient;
  account: LocalAccount;
  chainId: number;
  startNonce: number;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
  transactions: readonly PlainTransaction[];
}): Promise<void> {
  const hashes: Hex[] = [];
  for (const [i, tx] of params.transactions.entries()) {
    const serialized = await params.account.signTransaction({
      type: 'eip1559',
      chainId: params.chainId,
      nonce: params.startNonce + i,
      to: tx.to ?? null,
      data: tx.data,
      value: tx.value ?? 0n,
      gas: tx.gas,
      maxFeePerGas: params.maxFeePerGas,
      maxPriorityFeePerGas: params.maxPriorityFeePerGas,
    });
    hashes.push(await params.client.sendRawTransaction({ serializedTransaction: serialized }));
  }
  const receipts = await Promise.all(hashes.map((hash) => waitForReceipt(params.client, hash)));
  const failed = receipts.find((receipt) => receipt.status !== 'success');
  if (failed) throw new Error(`set-up transaction ${failed.transactionHash} on chain ${params.chainId} reverted`);
}
