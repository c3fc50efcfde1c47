import { stringToHex, type Address, type Hex } from 'viem';
import { SolverBalanceTooLowError } from '../SolverBalanceTooLowError';
import type { VirtualClock } from '../../clock/VirtualClock';
import type { SolverPayment } from '../../domain/fill/solverPayment';
import { messageFailure } from '../../domain/fill/chainFailure';
import { ChainError } from '../../errors/IntentsimError';
import type { SolverTxStore } from '../../store/SolverTxStore';
import type { FillSimulation, SentSolverTransaction, SolverSendOptions, SolverTransactionStatus, SolverWallet } from '../SolverWallet';
import type { TransactionEntry } from '../../domain/request/requestRecord';
import { SolverBroadcastRefusedError } from '../SolverBroadcastRefusedError';
import { lvmTransferHash, LvmTransferRefusedError, type LvmLedger, type LvmTransaction, type LvmTransferParams, LVM_TRANSFER_FEE, ROUTE_PERP, USDC_ASSET } from '../../nodes/lvm';

/** A fill the exchange cannot make: it moves collateral between accounts, nothing else. */
export class LvmFillNotSupportedError extends ChainError {}

/**
 * The solver's wallet on the exchange: a payment is a real transfer of USDC collateral from the
 * solver's account to the recipient's (perpetuals route to perpetuals route), the exchange's fee
 * on top, the request id as memo, sent with the solver's API key. A transfer is fixed (nonce
 * included, so its hash is known) and stored before it is sent; the same request and kind is
 * never signed twice. A transfer the exchange refuses never executes, so no executed transaction
 * failed (no `failedTransactionFacts`).
 */
export class LvmSolverWallet implements SolverWallet {
  constructor(
    private readonly deps: {
      chainId: number;
      ledger: LvmLedger;
      solverIndex: number;
      apiKey: string;
      store: SolverTxStore;
      clock: VirtualClock;
      /** An executed transfer as a record entry. */
      entryOf: (tx: LvmTransaction, type: TransactionEntry['type'], data: TransactionEntry['data']) => TransactionEntry;
      /** The currency of the transfers it pays. */
      currencyAddress: Address;
    },
  ) {}

  async simulateFill(payment: SolverPayment): Promise<FillSimulation> {
    try {
      const refused = this.deps.ledger.check(this.transferFor(payment));
      if (!refused) return { ok: true, gasUnits: 0n };
      const errorName = refused.reason === 'INSUFFICIENT_BALANCE' ? 'InsufficientBalance' : refused.reason;
      return failedSimulation(errorName, refused.message);
    } catch (error) {
      if (!(error instanceof LvmFillNotSupportedError)) throw error;
      return failedSimulation('FillNotSupported', error.message);
    }
  }

  async sendPayment(kind: 'fill' | 'refund', payment: SolverPayment, options: SolverSendOptions = {}): Promise<SentSolverTransaction> {
    return { txHash: options.withoutSending ? this.sign(kind, payment).txHash : this.send(kind, payment, options), chainId: this.deps.chainId };
  }

  /** A transfer executes or is refused at once: one the exchange does not have may be sent again. */
  async transactionStatus(txHash: Hex): Promise<SolverTransactionStatus> {
    return this.deps.ledger.transaction(txHash) !== undefined ? 'seen' : 'unseen';
  }

  async awaitPayment(txHash: Hex, kind: 'fill' | 'refund', payment: SolverPayment): Promise<TransactionEntry> {
    const tx = this.deps.ledger.transaction(txHash);
    if (!tx) throw new ChainError(`chain ${this.deps.chainId}: no transaction ${txHash}`);
    const saved = this.deps.store.find(payment.requestId, kind);
    if (saved) this.deps.store.setState(saved.id, 'confirmed');
    const to = String(tx.toAccountIndex) as Address;
    const currency = this.deps.currencyAddress;
    return this.deps.entryOf(tx, kind, {
      from: String(tx.fromAccountIndex) as Address,
      to,
      currency,
      amount: tx.amount,
      deliveries: [{ to, currency, amount: tx.amount }],
    });
  }

  /** The transfer that pays `payment` (nonce left for `sign` to fix). */
  transferFor(payment: SolverPayment): LvmTransferParams {
    const execution = payment.execution;
    if (execution && (execution.action.kind !== 'transfer' || execution.calls.length > 0 || execution.gasTopUp)) {
      throw new LvmFillNotSupportedError(`chain ${this.deps.chainId} (the exchange) fills by transfer only; a ${execution.action.kind} fill${execution.calls.length > 0 ? ' with calls' : ''} is not simulated`);
    }
    if (!/^(0|[1-9]\d*)$/.test(payment.recipient)) throw new LvmFillNotSupportedError(`${payment.recipient} is not an exchange account index`);
    return {
      fromAccountIndex: this.deps.solverIndex,
      toAccountIndex: Number(payment.recipient),
      assetIndex: USDC_ASSET.index,
      fromRouteType: ROUTE_PERP,
      toRouteType: ROUTE_PERP,
      amount: payment.amount,
      usdcFee: LVM_TRANSFER_FEE,
      memo: payment.requestId.toLowerCase() as Hex,
    };
  }

  /** Fixes the payment's transfer (or takes the one already fixed for this request and kind). */
  sign(kind: 'fill' | 'refund', payment: SolverPayment): { txHash: Hex; transfer: Required<LvmTransferParams>; id: number } {
    const { store, chainId, ledger, solverIndex } = this.deps;
    const existing = store.find(payment.requestId, kind);
    if (existing) return { txHash: existing.txHash, transfer: parseTransfer(existing.rawTx), id: existing.id };
    const nonce = Math.max(ledger.account(solverIndex)?.nonce ?? 0, store.highestNonce(chainId)) + 1;
    const transfer = { ...this.transferFor(payment), nonce } as Required<LvmTransferParams>;
    const txHash = lvmTransferHash(transfer) as Hex;
    store.insertSigned({ requestId: payment.requestId, kind, chainId, nonce, txHash, rawTx: serializeTransfer(transfer), createdAt: this.deps.clock.now() });
    const saved = store.find(payment.requestId, kind)!;
    return { txHash: saved.txHash, transfer, id: saved.id };
  }

  send(kind: 'fill' | 'refund', payment: SolverPayment, options: SolverSendOptions = {}): Hex {
    const signed = this.sign(kind, payment);
    if (this.deps.ledger.transaction(signed.txHash)) return signed.txHash;
    try {
      if (options.refusedByNode) throw new LvmTransferRefusedError('INVALID_NONCE', 'the solver fault "broadcast refused": the exchange refuses the transfer');
      this.deps.ledger.submitTransfer(this.deps.apiKey, signed.transfer);
      this.deps.store.setState(signed.id, 'broadcast');
    } catch (error) {
      if (!(error instanceof LvmTransferRefusedError)) throw error;
      this.deps.store.forget(signed.id);
      // the solver's own collateral cannot cover it: SOLVER_BALANCE_TOO_LOW, as on the EVM and Bitcoin chains
      if (error.reason === 'INSUFFICIENT_BALANCE' && !options.refusedByNode) throw new SolverBalanceTooLowError(this.deps.chainId, error.message);
      throw new SolverBroadcastRefusedError(this.deps.chainId, error.message, error);
    }
    return signed.txHash;
  }
}

/** A fixed transfer as stored: its JSON (bigints as strings), hex-encoded. */
function serializeTransfer(transfer: Required<LvmTransferParams>): Hex {
  return stringToHex(JSON.stringify({ ...transfer, amount: String(transfer.amount), usdcFee: String(transfer.usdcFee) }));
}

function parseTransfer(raw: Hex): Required<LvmTransferParams> {
  const parsed = JSON.parse(Buffer.from(raw.slice(2), 'hex').toString('utf8')) as Omit<Required<LvmTransferParams>, 'amount' | 'usdcFee'> & { amount: string; usdcFee: string };
  return { ...parsed, amount: BigInt(parsed.amount), usdcFee: BigInt(parsed.usdcFee) };
}

function failedSimulation(errorName: string, message: string): FillSimulation {
  return { ok: false, failure: messageFailure(errorName, message) };
}
