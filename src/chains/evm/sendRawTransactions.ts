import type { Address, Hex, LocalAccount, PublicClient } from 'viem';
import { waitForReceipt } from './waitForReceipt';

export interface PlainTransaction {
  to?: Address;
  data?: Hex;
  value?: bigint;
  gas: bigint;
}

/**
 * Signs a batch of transactions locally with consecutive nonces and sends them one at a time,
 * each after the previous one's receipt, so each is mined in a block of its own. Sent all at
 * once, a loaded Anvil sometimes packs two into one block: the chain then has fewer blocks and
 * another base fee, and every quote priced on it differs. Used at start-up to deploy and fund.
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
    const hash: Hex = await params.client.sendRawTransaction({ serializedTransaction: serialized });
    const receipt = await waitForReceipt(params.client, hash);
    if (receipt.status !== 'success') throw new Error(`set-up transaction ${hash} on chain ${params.chainId} reverted`);
  }
}
