import { stringToHex, type Hex } from 'viem';
import { SolverBalanceTooLowError } from '../SolverBalanceTooLowError';
import type { VirtualClock } from '../../clock/VirtualClock';
import type { SolverPayment } from '../../domain/fill/solverPayment';
import { ChainError } from '../../errors/IntentsimError';
import type { SolverTxStore } from '../../store/SolverTxStore';
import type { SolverSendOptions } from '../ChainAdapter';
import { SolverBroadcastRefusedError } from '../SolverBroadcastRefusedError';
import { lvmTransferHash, LvmTransferRefusedError, type LvmLedger, type LvmTransferParams, LVM_TRANSFER_FEE, ROUTE_PERP, USDC_ASSET } from '../../nodes/lvm';

/** A fill the exchange cannot make: it moves collateral between accounts, nothing else. */
export class LvmFillNotSupportedError extends ChainError {}

/**
 * The solver's wallet on the exchange: a payment is a real transfer of USDC collateral from the
 * solver's account to the recipient's (perpetuals route to perpetuals route), the exchange's fee
 * on top, the request id as memo, sent with the solver's API key. A transfer is fixed (nonce
 * included, so its hash is known) and stored before it is sent; the same request and kind is
 * never signed twice.
 */
export class LvmSolverWallet {
  constructor(
    private readonly deps: { chainId: number; ledger: LvmLedger; solverIndex: number; apiKey: string; store: SolverTxStore; clock: VirtualClock },
  ) {}

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
