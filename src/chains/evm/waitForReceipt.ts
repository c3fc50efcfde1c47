import type { Hex, PublicClient, TransactionReceipt } from 'viem';
import { TransactionReceiptNotFoundError } from 'viem';
import { ChainError } from '../../errors/IntentsimError';

export class ReceiptTimeoutError extends ChainError {
  constructor(readonly txHash: Hex, timeoutMs: number) {
    super(`no receipt for ${txHash} after ${timeoutMs} ms`);
  }
}

/**
 * Polls for a receipt at a short interval. Anvil mines on arrival, so the receipt is usually
 * there on the first or second try; viem's default 4 s polling would dominate every timing.
 */
export async function waitForReceipt(
  client: PublicClient,
  hash: Hex,
  options: { intervalMs?: number; timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<TransactionReceipt> {
  const intervalMs = options.intervalMs ?? 2;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const started = performance.now();
  for (;;) {
    try {
      return await client.getTransactionReceipt({ hash });
    } catch (error) {
      if (!(error instanceof TransactionReceiptNotFoundError)) throw error;
    }
    if (options.signal?.aborted) throw options.signal.reason;
    if (performance.now() - started > timeoutMs) throw new ReceiptTimeoutError(hash, timeoutMs);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
