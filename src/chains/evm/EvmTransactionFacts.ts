import { getAddress, zeroAddress, type Address, type Hex, type PublicClient, type TransactionReceipt } from 'viem';
import type { Currency } from '../../domain/chain/currency';
import { indexedDepositEntry, type IndexedDeposit } from '../../domain/chain/observedDeposit';
import { usdMicrosOf } from '../../domain/money/usdValue';
import type { TransactionEntry } from '../../domain/request/requestRecord';
import type { FailedTransactionFacts } from '../SolverWallet';
import type { SolverPayment } from '../../domain/fill/solverPayment';
import { decodeRevertData } from './decodeRevert';
import { readDeliveries } from './readDeliveries';

/** Turns what the node shows about a transaction (receipt, block, trace) into request-record entries (SPEC §2.3). */
export class EvmTransactionFacts {
  constructor(private readonly deps: { chainId: number; client: PublicClient; depository: Address; nativeCurrency: Currency }) {}

  /** An `inTxs` entry from what the watcher indexed alone (no RPC; fee filled in later). */
  indexedDepositEntry(deposit: IndexedDeposit): TransactionEntry {
    return indexedDepositEntry(deposit, this.deps.chainId, this.deps.depository);
  }

  async depositTransactionEntry(deposit: IndexedDeposit, status: 'success' | 'failure'): Promise<TransactionEntry> {
    const indexed = { ...this.indexedDepositEntry(deposit), status };
    const receipt = await this.deps.client.getTransactionReceipt({ hash: deposit.txHash }).catch(() => undefined);
    // reorged out: the receipt is gone, keep what was indexed
    if (!receipt) return indexed;
    // the block the watcher indexed it in carries its timestamp; another block (re-included after a reorg) is read
    const blockTimestamp = receipt.blockHash === deposit.blockHash && deposit.blockTimestamp !== undefined ? deposit.blockTimestamp : await this.blockTimestampOf(receipt);
    return { ...this.entryOf(receipt, blockTimestamp, 'deposit', indexed.data), status };
  }

  /**
   * A mined solver payment's entry: who received what, as the chain shows it (a Call's value goes to
   * its target; a top-up to the recipient), leaving out the simulator's own `internal` addresses.
   */
  async solverPaymentEntry(receipt: TransactionReceipt, kind: 'fill' | 'refund', payment: SolverPayment, internal: ReadonlySet<string>): Promise<TransactionEntry> {
    // the trace and the block's timestamp are read side by side: two round trips at once
    const [deliveries, blockTimestamp] = await Promise.all([readDeliveries(this.deps.client, receipt, internal), this.blockTimestampOf(receipt)]);
    const recipient = getAddress(payment.recipient);
    // a transaction the node can no longer trace (mined before a reload): what it was sent to pay
    if (deliveries === undefined) return this.entryOf(receipt, blockTimestamp, kind, { from: receipt.from, to: recipient, currency: payment.currency.address, amount: payment.amount });
    const toRecipient = deliveries.find((d) => d.to === recipient && d.currency.toLowerCase() === payment.currency.address.toLowerCase());
    return this.entryOf(receipt, blockTimestamp, kind, {
      from: receipt.from,
      to: recipient,
      currency: payment.currency.address,
      amount: receipt.status === 'success' ? (toRecipient?.amount ?? 0n) : payment.amount,
      deliveries,
    });
  }

  async transactionEntry(receipt: TransactionReceipt, type: TransactionEntry['type'], data: TransactionEntry['data']): Promise<TransactionEntry> {
    return this.entryOf(receipt, await this.blockTimestampOf(receipt), type, data);
  }

  private async blockTimestampOf(receipt: TransactionReceipt): Promise<number> {
    return Number((await this.deps.client.getBlock({ blockHash: receipt.blockHash })).timestamp);
  }

  private entryOf(receipt: TransactionReceipt, blockTimestamp: number, type: TransactionEntry['type'], data: TransactionEntry['data']): TransactionEntry {
    const fee = receipt.gasUsed * receipt.effectiveGasPrice;
    return {
      txHash: receipt.transactionHash,
      chainId: this.deps.chainId,
      type,
      fee,
      feeUsdMicros: usdMicrosOf(fee, this.deps.nativeCurrency),
      block: Number(receipt.blockNumber),
      blockHash: receipt.blockHash,
      timestamp: blockTimestamp,
      status: receipt.status === 'success' ? 'success' : 'failure',
      data,
    };
  }

  /** The failed call from the transaction itself; its error from Anvil's call trace of it. */
  async failedTransactionFacts(txHash: Hex): Promise<FailedTransactionFacts> {
    const { client } = this.deps;
    const [transaction, trace] = await Promise.all([
      client.getTransaction({ hash: txHash }),
      client
        .request({ method: 'debug_traceTransaction', params: [txHash, { tracer: 'callTracer' }] } as never)
        .then((result) => result as { output?: Hex })
        .catch(() => undefined),
    ]);
    return {
      callData: { from: transaction.from, to: transaction.to ?? zeroAddress, data: transaction.input, value: transaction.value },
      failure: decodeRevertData(trace?.output).failure,
    };
  }
}
