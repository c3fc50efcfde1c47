import { address, type Instruction } from '@solana/kit';
import type { Hex } from 'viem';
import type { VirtualClock } from '../../clock/VirtualClock';
import type { SolverPayment } from '../../domain/fill/solverPayment';
import { ChainError } from '../../errors/IntentsimError';
import type { SolverTxStore } from '../../store/SolverTxStore';
import type { FailedTransactionFacts, FillSimulation, SentSolverTransaction, SolverSendOptions, SolverTransactionStatus, SolverWallet } from '../SolverWallet';
import type { TransactionEntry } from '../../domain/request/requestRecord';
import { SolverBroadcastRefusedError } from '../SolverBroadcastRefusedError';
import { type SvmKeypair, decodeSvmTransaction, describeSvmTransactionError, signatureOfWire, SvmTransactionDroppedError, SvmTransactionRejectedError, type SvmSimulation, type SvmTransactionRecord } from '../../nodes/svm';
import { failedSvmSimulation, failedSvmTransactionFacts } from './svmFillErrors';
import { creditsTo } from './SvmDepositWatcher';
import type { SvmLedgerAccess } from './SvmLedgerAccess';
import { memoInstruction, transferInstructions } from './svmInstructions';

/** A fill the SVM chain cannot make: it has no pools, wrapping route or contract calls (SPEC §1.2 types beyond a transfer). */
export class SvmFillNotSupportedError extends ChainError {}

/**
 * The solver's wallet on the SVM chain: a payment is a real transfer signed by the solver's key
 * (System transfer for SOL, TransferChecked into the recipient's associated token account for a
 * token), with the request id in a Memo. Signed transactions are stored before they are sent
 * (the same request and kind is never signed twice); they are mined even when they fail, as a
 * validator mines a transaction sent without preflight, so a failed fill has a signature to show.
 * A transaction it sent that the chain never mined can land until its blockhash expires
 * (`transactionStatus`).
 */
export class SvmSolverWallet implements SolverWallet {
  /** The blockhash of each transaction sent this run, by signature: until it expires the transaction may still land. */
  private readonly sentOnBlockhash = new Map<string, string>();

  constructor(
    private readonly deps: {
      chainId: number;
      ledger: SvmLedgerAccess;
      solver: SvmKeypair;
      store: SolverTxStore;
      clock: VirtualClock;
      /** A mined transaction as a record entry. */
      entryOf: (record: SvmTransactionRecord, type: TransactionEntry['type'], data: TransactionEntry['data']) => Promise<TransactionEntry>;
    },
  ) {}

  async simulateFill(payment: SolverPayment): Promise<FillSimulation> {
    try {
      const simulation = await this.simulate(payment);
      if (simulation.err === null) return { ok: true, gasUnits: simulation.unitsConsumed };
      return failedSvmSimulation(describeSvmTransactionError(simulation.err), simulation.err);
    } catch (error) {
      return failedSvmSimulation(error instanceof Error ? error.message : String(error), 'FillNotSupported');
    }
  }

  async sendPayment(kind: 'fill' | 'refund', payment: SolverPayment, options: SolverSendOptions = {}): Promise<SentSolverTransaction> {
    return { txHash: options.withoutSending ? (await this.sign(kind, payment)).txHash : await this.send(kind, payment, options), chainId: this.deps.chainId };
  }

  /** Mined: seen. Not mined: it can land again until the blockhash it was sent on expires (SPEC §7.2 TRANSACTION_NOT_INCLUDED). */
  async transactionStatus(txHash: Hex): Promise<SolverTransactionStatus> {
    if (await this.deps.ledger.transaction(txHash)) return 'seen';
    const blockhash = this.sentOnBlockhash.get(txHash);
    return blockhash !== undefined && !(await this.deps.ledger.isBlockhashValid(blockhash)) ? 'expired' : 'unseen';
  }

  async awaitPayment(txHash: Hex, kind: 'fill' | 'refund', payment: SolverPayment): Promise<TransactionEntry> {
    const record = await this.record(txHash);
    const saved = this.deps.store.find(payment.requestId, kind);
    if (saved) this.deps.store.setState(saved.id, record.err === null ? 'confirmed' : 'failed');
    // who received what, as the ledger shows it
    const delivered = creditsTo(record, payment.recipient);
    const toRecipient = delivered.find((credit) => credit.currency === payment.currency.address)?.amount ?? 0n;
    return this.deps.entryOf(record, kind, {
      from: this.deps.solver.address as Hex,
      to: payment.recipient as Hex,
      currency: payment.currency.address,
      amount: record.err === null ? toRecipient : payment.amount,
      deliveries: delivered.map((credit) => ({ to: payment.recipient as Hex, currency: credit.currency as Hex, amount: credit.amount })),
    });
  }

  async failedTransactionFacts(txHash: Hex): Promise<FailedTransactionFacts> {
    return failedSvmTransactionFacts(await this.record(txHash));
  }

  private async record(txHash: string): Promise<SvmTransactionRecord> {
    const record = await this.deps.ledger.transaction(txHash);
    if (!record) throw new ChainError(`chain ${this.deps.chainId}: no transaction ${txHash}`);
    return record;
  }

  async instructionsFor(payment: SolverPayment): Promise<Instruction[]> {
    const execution = payment.execution;
    if (execution && (execution.action.kind !== 'transfer' || execution.calls.length > 0 || execution.gasTopUp)) {
      throw new SvmFillNotSupportedError(`chain ${this.deps.chainId} (SVM) fills by transfer only; a ${execution.action.kind} fill${execution.calls.length > 0 ? ' with calls' : ''} is not simulated`);
    }
    const signer = this.deps.solver.signer;
    const transfer = await transferInstructions({ from: signer, to: address(payment.recipient), payer: signer, currency: payment.currency, amount: payment.amount });
    return [...transfer, memoInstruction(payment.requestId)];
  }

  async simulate(payment: SolverPayment): Promise<SvmSimulation> {
    const wire = await this.deps.ledger.signWire(this.deps.solver.signer, await this.instructionsFor(payment));
    return await this.deps.ledger.simulate(wire, { sigVerify: false, replaceRecentBlockhash: false });
  }

  /** Signs `payment` (or takes the one already signed for this request and kind); `send` mines it. */
  async sign(kind: 'fill' | 'refund', payment: SolverPayment): Promise<{ txHash: Hex; wire: Uint8Array; id: number; fresh: boolean }> {
    const { store, chainId } = this.deps;
    const existing = store.find(payment.requestId, kind);
    if (existing) return { txHash: existing.txHash, wire: new Uint8Array(Buffer.from(existing.rawTx.slice(2), 'hex')), id: existing.id, fresh: false };
    const wire = await this.deps.ledger.signWire(this.deps.solver.signer, await this.instructionsFor(payment));
    const txHash = signatureOfWire(wire) as Hex;
    store.insertSigned({ requestId: payment.requestId, kind, chainId, nonce: store.highestNonce(chainId) + 1, txHash, rawTx: `0x${Buffer.from(wire).toString('hex')}`, createdAt: this.deps.clock.now() });
    const saved = store.find(payment.requestId, kind)!;
    return { txHash: saved.txHash, wire, id: saved.id, fresh: true };
  }

  async send(kind: 'fill' | 'refund', payment: SolverPayment, options: SolverSendOptions = {}): Promise<Hex> {
    const signed = await this.sign(kind, payment);
    if (await this.deps.ledger.transaction(signed.txHash)) return signed.txHash;
    try {
      if (options.refusedByNode) throw new SvmTransactionRejectedError('the solver fault "broadcast refused": the node refuses the transaction', -32002);
      this.sentOnBlockhash.set(signed.txHash, decodeSvmTransaction(signed.wire).message.lifetimeToken);
      await this.deps.ledger.submit(signed.wire, { preflight: false });
      this.deps.store.setState(signed.id, 'broadcast');
    } catch (error) {
      // the fault "drop transactions": sent as far as the solver can tell; it never lands
      if (error instanceof SvmTransactionDroppedError) {
        this.deps.store.setState(signed.id, 'broadcast');
        return signed.txHash;
      }
      if (!(error instanceof SvmTransactionRejectedError)) throw error;
      this.sentOnBlockhash.delete(signed.txHash);
      this.deps.store.forget(signed.id);
      throw new SolverBroadcastRefusedError(this.deps.chainId, error.message, error);
    }
    return signed.txHash;
  }
}
