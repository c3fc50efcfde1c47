import { address, type Instruction } from '@solana/kit';
import type { Hex } from 'viem';
import type { VirtualClock } from '../../clock/VirtualClock';
import type { SolverPayment } from '../../domain/fill/solverPayment';
import { ChainError } from '../../errors/IntentsimError';
import type { SolverTxStore } from '../../store/SolverTxStore';
import type { SolverSendOptions } from '../ChainAdapter';
import { SolverBroadcastRefusedError } from '../SolverBroadcastRefusedError';
import { type SvmKeypair, signatureOfWire, SvmTransactionDroppedError, SvmTransactionRejectedError, type SvmSimulation } from '../../nodes/svm';
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
 */
export class SvmSolverWallet {
  constructor(
    private readonly deps: { chainId: number; ledger: SvmLedgerAccess; solver: SvmKeypair; store: SolverTxStore; clock: VirtualClock },
  ) {}

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
      await this.deps.ledger.submit(signed.wire, { preflight: false });
      this.deps.store.setState(signed.id, 'broadcast');
    } catch (error) {
      // the fault "drop transactions": sent as far as the solver can tell; it never lands
      if (error instanceof SvmTransactionDroppedError) {
        this.deps.store.setState(signed.id, 'broadcast');
        return signed.txHash;
      }
      if (!(error instanceof SvmTransactionRejectedError)) throw error;
      this.deps.store.forget(signed.id);
      throw new SolverBroadcastRefusedError(this.deps.chainId, error.message, error);
    }
    return signed.txHash;
  }
}
