import type { Hex } from 'viem';
import type { VirtualClock } from '../../clock/VirtualClock';
import type { SolverPayment } from '../../domain/fill/solverPayment';
import { messageFailure, namedFailure } from '../../domain/fill/chainFailure';
import { ChainError } from '../../errors/IntentsimError';
import type { SolverTxStore } from '../../store/SolverTxStore';
import type { FillSimulation, SentSolverTransaction, SolverSendOptions, SolverTransactionStatus, SolverWallet } from '../SolverWallet';
import type { TransactionEntry } from '../../domain/request/requestRecord';
import { SolverBalanceTooLowError } from '../SolverBalanceTooLowError';
import { SolverBroadcastRefusedError } from '../SolverBroadcastRefusedError';
import { type BvmKey, addressOfScript, outputScriptOf, BvmRpcError, dustThreshold, type BvmCoin, type BvmLedger, type BvmTransactionRecord, selectCoins, signP2wpkhTransaction, spendableCoinsOf } from '../../nodes/bvm';

/** A fill the BVM chain cannot make: it pays BTC by transfer only (no pools, wraps or contract calls). */
export class BvmFillNotSupportedError extends ChainError {}

/**
 * The solver's wallet on the BVM chain: a payment is a real transaction signed with the solver's
 * key, spending its coins (largest first, unconfirmed change included; never an immature coinbase or a locked coin) into the recipient's
 * output and change back to the solver, at the wallets' fee rate. Coins it cannot cover are
 * SOLVER_BALANCE_TOO_LOW before anything is signed. Signed transactions are stored before they
 * are sent (the same request and kind is never signed twice). A sent payment waits in the
 * mempool until a block is mined. A Bitcoin transaction is valid or never mined: none is mined and
 * failed (no `failedTransactionFacts`).
 */
export class BvmSolverWallet implements SolverWallet {
  constructor(
    private readonly deps: {
      chainId: number;
      ledger: BvmLedger;
      solver: BvmKey;
      store: SolverTxStore;
      clock: VirtualClock;
      /** The record once mined; undefined if it leaves the mempool unmined (BvmChain.minedRecord). */
      minedRecord: (txid: string) => Promise<BvmTransactionRecord | undefined>;
      /** A mined transaction as a record entry. */
      entryOf: (record: BvmTransactionRecord, type: TransactionEntry['type'], data: TransactionEntry['data']) => TransactionEntry;
      normalizeAddress: (address: string) => string;
    },
  ) {}

  /** Builds the payment from the solver's coins now (nothing is signed into the store or sent). */
  async simulateFill(payment: SolverPayment): Promise<FillSimulation> {
    try {
      this.build(payment);
      return { ok: true, gasUnits: 0n };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof SolverBalanceTooLowError) {
        return { ok: false, failure: namedFailure('InsufficientFunds', message) };
      }
      return { ok: false, failure: messageFailure('FillNotSupported', message) };
    }
  }

  async sendPayment(kind: 'fill' | 'refund', payment: SolverPayment, options: SolverSendOptions = {}): Promise<SentSolverTransaction> {
    return { txHash: options.withoutSending ? this.sign(kind, payment).txHash : this.send(kind, payment, options), chainId: this.deps.chainId };
  }

  /** In the mempool or mined; one the node does not have may be sent again (its coins unspent). */
  async transactionStatus(txHash: Hex): Promise<SolverTransactionStatus> {
    return this.deps.ledger.transaction(txHash) !== undefined ? 'seen' : 'unseen';
  }

  /** Waits until the payment is mined (blocks come from `generatetoaddress`, `mine` or the block time). */
  async awaitPayment(txHash: Hex, kind: 'fill' | 'refund', payment: SolverPayment): Promise<TransactionEntry> {
    const { store, chainId, solver } = this.deps;
    const record = await this.deps.minedRecord(txHash);
    const saved = store.find(payment.requestId, kind);
    if (saved) store.setState(saved.id, record ? 'confirmed' : 'failed');
    const recipient = this.deps.normalizeAddress(payment.recipient);
    const delivered = record?.tx.outs.filter((output) => addressOfScript(output.script) === recipient).reduce((sum, output) => sum + output.value, 0n) ?? 0n;
    const data = {
      from: solver.address as Hex,
      to: payment.recipient as Hex,
      currency: payment.currency.address,
      amount: record ? delivered : payment.amount,
      deliveries: record ? [{ to: payment.recipient as Hex, currency: payment.currency.address, amount: delivered }] : [],
    };
    if (!record) {
      return { txHash, chainId, type: kind, fee: 0n, feeUsdMicros: 0n, block: 0, blockHash: '' as Hex, timestamp: this.deps.clock.nowSeconds(), status: 'failure', data };
    }
    return this.deps.entryOf(record, kind, data);
  }

  /** The signed transaction of `payment` (hex), built from the solver's coins now. */
  build(payment: SolverPayment, spendable: readonly BvmCoin[] = spendableCoinsOf(this.deps.ledger, this.deps.solver.script)): { txid: string; hex: string } {
    const execution = payment.execution;
    if (!payment.currency.isNative || (execution && (execution.action.kind !== 'transfer' || execution.calls.length > 0 || execution.gasTopUp))) {
      throw new BvmFillNotSupportedError(`chain ${this.deps.chainId} (BVM) pays native BTC by transfer only`);
    }
    const script = outputScriptOf(payment.recipient);
    if (!script) throw new BvmFillNotSupportedError(`chain ${this.deps.chainId} (BVM): ${payment.recipient} is not a regtest address`);
    if (payment.amount < dustThreshold(script)) throw new BvmFillNotSupportedError(`chain ${this.deps.chainId} (BVM): ${payment.amount} sats is below the dust threshold of the recipient's output`);
    const selected = selectCoins(spendable, payment.amount);
    if (!selected) {
      const balance = spendable.reduce((sum, coin) => sum + coin.value, 0n);
      throw new SolverBalanceTooLowError(this.deps.chainId, `the solver's coins (${balance} sats in ${spendable.length} outputs) do not cover ${payment.amount} sats plus the network fee`);
    }
    const solver = this.deps.solver;
    const outputs = [{ script, value: payment.amount }];
    if (selected.change >= dustThreshold(solver.script)) outputs.push({ script: solver.script, value: selected.change });
    const tx = signP2wpkhTransaction(
      selected.coins.map((coin) => ({ coin, key: solver })),
      outputs,
    );
    return { txid: tx.getId(), hex: tx.toHex() };
  }

  /** Signs `payment` (or takes the one already signed for this request and kind). */
  sign(kind: 'fill' | 'refund', payment: SolverPayment): { txHash: Hex; hex: string; id: number } {
    const { store, chainId } = this.deps;
    const existing = store.find(payment.requestId, kind);
    if (existing) return { txHash: existing.txHash, hex: existing.rawTx.slice(2), id: existing.id };
    const built = this.build(payment);
    store.insertSigned({ requestId: payment.requestId, kind, chainId, nonce: store.highestNonce(chainId) + 1, txHash: built.txid as Hex, rawTx: `0x${built.hex}`, createdAt: this.deps.clock.now() });
    const saved = store.find(payment.requestId, kind)!;
    return { txHash: saved.txHash, hex: built.hex, id: saved.id };
  }

  send(kind: 'fill' | 'refund', payment: SolverPayment, options: SolverSendOptions = {}): Hex {
    const signed = this.sign(kind, payment);
    if (this.deps.ledger.transaction(signed.txHash)) return signed.txHash;
    try {
      if (options.refusedByNode) throw new BvmRpcError(-26, 'the solver fault "broadcast refused": the node refuses the transaction');
      this.deps.ledger.submit(signed.hex);
      this.deps.store.setState(signed.id, 'broadcast');
    } catch (error) {
      if (!(error instanceof BvmRpcError)) throw error;
      this.deps.store.forget(signed.id);
      throw new SolverBroadcastRefusedError(this.deps.chainId, error.message, error);
    }
    return signed.txHash;
  }
}
