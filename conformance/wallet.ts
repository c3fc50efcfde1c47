import { createPublicClient, createWalletClient, defineChain, http, TransactionReceiptNotFoundError, type Hex, type PublicClient, type TransactionReceipt } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

/** SPEC §2.2: the `data` of an EVM transaction step item. */
export interface TransactionItemData {
  to: string;
  data: string;
  value: string;
  chainId: number;
  gas?: string;
  maxFeePerGas?: string;
  maxPriorityFeePerGas?: string;
}

export interface PaidItem {
  stepId: string;
  hash: Hex;
  receipt: TransactionReceipt;
}

/** How often a receipt is looked for: a local chain mines in milliseconds (viem's default waits 4 s). */
const RECEIPT_POLL_MS = 50;

/** A public client for a chain RPC that polls fast. */
export function publicClientOf(rpcUrl: string, timeoutMs = 10_000): PublicClient {
  return createPublicClient({ transport: http(rpcUrl, { timeout: timeoutMs, retryCount: 0 }), pollingInterval: RECEIPT_POLL_MS });
}

/** Polls `eth_getTransactionReceipt` until the transaction is mined, or throws after `timeoutMs`. */
export async function waitForReceipt(client: PublicClient, hash: Hex, timeoutMs = 30_000): Promise<TransactionReceipt> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    try {
      return await client.getTransactionReceipt({ hash });
    } catch (error) {
      if (!(error instanceof TransactionReceiptNotFoundError)) throw error;
    }
    if (performance.now() > deadline) throw new Error(`transaction ${hash} was not mined within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, RECEIPT_POLL_MS));
  }
}

/**
 * Pays the transaction items of a quote's steps as a wallet would, in order (`approve` before
 * `deposit`): each item's `to`, `data`, `value` on its `chainId`, with the quoted gas fields when
 * given, waiting for each receipt before the next. A reverted item throws.
 */
export async function payStepItems(
  steps: ReadonlyArray<{ id: string; items: ReadonlyArray<{ data: TransactionItemData }> }>,
  options: { privateKey: Hex; rpcUrlOf: (chainId: number) => string | undefined },
): Promise<PaidItem[]> {
  const account = privateKeyToAccount(options.privateKey);
  const paid: PaidItem[] = [];
  for (const step of steps) {
    for (const { data: item } of step.items) {
      const rpcUrl = options.rpcUrlOf(item.chainId);
      if (!rpcUrl) throw new Error(`step ${step.id} pays on chain ${item.chainId}, which has no RPC URL here`);
      const chain = defineChain({ id: item.chainId, name: `chain ${item.chainId}`, nativeCurrency: { name: 'native', symbol: 'NATIVE', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } });
      const wallet = createWalletClient({ account, chain, transport: http(rpcUrl, { retryCount: 0 }) });
      const hash = await wallet.sendTransaction({
        to: item.to as Hex,
        data: item.data as Hex,
        value: BigInt(item.value),
        ...(item.gas ? { gas: BigInt(item.gas) } : {}),
        ...(item.maxFeePerGas ? { maxFeePerGas: BigInt(item.maxFeePerGas) } : {}),
        ...(item.maxPriorityFeePerGas ? { maxPriorityFeePerGas: BigInt(item.maxPriorityFeePerGas) } : {}),
      });
      const receipt = await waitForReceipt(publicClientOf(rpcUrl), hash);
      if (receipt.status !== 'success') throw new Error(`step ${step.id}: transaction ${hash} reverted on chain ${item.chainId}`);
      paid.push({ stepId: step.id, hash, receipt });
    }
  }
  return paid;
}
