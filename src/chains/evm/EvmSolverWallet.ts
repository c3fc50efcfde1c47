import { BaseError, InsufficientFundsError, keccak256, RpcRequestError, zeroAddress, type Address, type Hex, type LocalAccount, type PublicClient } from 'viem';
import { encodeCall } from './encodeCall';
import { depositoryArtifact, serviceReceiverArtifact } from '../../../fixtures/contracts/artifacts.generated';
import type { VirtualClock } from '../../clock/VirtualClock';
import type { SolverTxKind, SolverTxStore } from '../../store/SolverTxStore';
import type { FailedTransactionFacts, FillSimulation, SentSolverTransaction, SolverSendOptions, SolverTransactionStatus, SolverWallet } from '../SolverWallet';
import type { TransactionEntry } from '../../domain/request/requestRecord';
import type { EvmTransactionFacts } from './EvmTransactionFacts';
import { SolverBroadcastRefusedError } from '../SolverBroadcastRefusedError';
import { SolverBalanceTooLowError } from '../SolverBalanceTooLowError';
import { bumpedFee } from '../../domain/fill/fillInclusion';
import { decodeRevert, revertFailure } from './decodeRevert';
import { encodeFillExecution } from './encodeFillExecution';

/** Gas limit of a fill with calls whose simulation did not measure one. */
const DEFAULT_EXECUTION_GAS = 1_500_000n;
import type { GasCalibration } from './calibrateGas';
import type { SimulatorContracts } from './deploySimulatorContracts';
import { waitForReceipt } from './waitForReceipt';
import type { SolverPayment } from '../../domain/fill/solverPayment';

/** A transaction the solver signs: target, calldata, value and gas limit. */
export interface SolverCall {
  to: Address;
  data: Hex;
  value: bigint;
  gas: bigint;
}

/**
 * The solver's wallet on one EVM chain. Fills go through the service receiver (which refuses
 * a second fill of the same request on-chain); refunds come out of the depository. Each
 * transaction is signed, written to the store, then broadcast — so a restart re-sends the same
 * bytes (same nonce) rather than paying twice. Sends on one chain are serialised for nonces.
 */
export class EvmSolverWallet implements SolverWallet {
  private sendQueue: Promise<unknown> = Promise.resolve();
  /** Next nonce to use; read from the chain and the store once, then counted locally. */
  private nextNonce: number | undefined;

  constructor(
    private readonly deps: {
      chainId: number;
      client: PublicClient;
      account: LocalAccount;
      contracts: SimulatorContracts;
      store: SolverTxStore;
      clock: VirtualClock;
      gas: () => GasCalibration;
      fees: () => { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
      facts: EvmTransactionFacts;
      /** A payment's receipt came: with a database, its block is journaled before any record points at it. */
      afterReceipt: () => Promise<void>;
    },
  ) {}

  /** The chain and the store went back (a world revert): the next nonce is read from them again. */
  forgetNonce(): void {
    this.nextNonce = undefined;
  }

  simulateFill(payment: SolverPayment): Promise<FillSimulation> {
    return this.simulate(payment);
  }

  async sendPayment(kind: 'fill' | 'refund', payment: SolverPayment, options: SolverSendOptions = {}): Promise<SentSolverTransaction> {
    const { chainId } = this.deps;
    if (options.withoutSending) return { txHash: await this.signWithoutSending(kind, payment, options), chainId };
    // `send` resolves once Anvil accepted the bytes (or already had them)
    return { txHash: await this.send(kind, payment, options), chainId, takenByNode: true };
  }

  /** Seen when the node has it in its pool or mined; an EVM transaction never expires (it can be sent again). */
  async transactionStatus(txHash: Hex): Promise<SolverTransactionStatus> {
    return (await this.hasTransaction(txHash)) ? 'seen' : 'unseen';
  }

  async awaitPayment(txHash: Hex, kind: 'fill' | 'refund', payment: SolverPayment): Promise<TransactionEntry> {
    const { store, contracts, account, facts } = this.deps;
    const receipt = await this.waitForReceipt(txHash);
    await this.deps.afterReceipt();
    const saved = store.find(payment.requestId, kind);
    if (saved) store.setState(saved.id, receipt.status === 'success' ? 'confirmed' : 'failed');
    const internal = new Set([...Object.values(contracts), account.address].map((address) => String(address).toLowerCase()));
    return facts.solverPaymentEntry(receipt, kind, payment, internal);
  }

  failedTransactionFacts(txHash: Hex): Promise<FailedTransactionFacts> {
    return this.deps.facts.failedTransactionFacts(txHash);
  }

  send(kind: 'fill' | 'refund', payment: SolverPayment, options: SolverSendOptions = {}): Promise<Hex> {
    return this.sendCall(payment.requestId, kind, async () => this.buildCall(kind, payment), options);
  }

  /** Signs, persists and broadcasts any call of the solver for a request (one per request and kind). */
  sendCall(requestId: Hex, kind: SolverTxKind, build: () => Promise<SolverCall>, options: SolverSendOptions = {}): Promise<Hex> {
    const run = this.sendQueue.then(() => this.signPersistBroadcast(requestId, kind, build, options));
    this.sendQueue = run.catch(() => undefined);
    return run;
  }

  /**
   * Signs the fill the wallet would send, at the next nonce, without keeping or sending it: the
   * solver fault "broadcast but dropped" (the transaction never reaches the chain, and its nonce
   * stays free for the next one).
   */
  async signWithoutSending(kind: 'fill' | 'refund', payment: SolverPayment, options: SolverSendOptions = {}): Promise<Hex> {
    const { client, account, chainId } = this.deps;
    const nonce = this.nextNonce ?? (await client.getTransactionCount({ address: account.address, blockTag: 'pending' }));
    const { to, data, value, gas } = this.buildCall(kind, payment);
    const rawTx = await account.signTransaction({ type: 'eip1559', chainId, nonce, to, data, value, gas, ...this.feesAfter(options.feeBumps ?? 0) });
    return keccak256(rawTx);
  }

  /** Whether the node knows the transaction (in its pool or mined). */
  private async hasTransaction(txHash: Hex): Promise<boolean> {
    return this.deps.client.getTransaction({ hash: txHash }).then(
      () => true,
      () => false,
    );
  }

  /** The chain's fees, raised for each earlier broadcast of the same payment. */
  private feesAfter(bumps: number): { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } {
    const fees = this.deps.fees();
    return { maxFeePerGas: bumpedFee(fees.maxFeePerGas, bumps), maxPriorityFeePerGas: bumpedFee(fees.maxPriorityFeePerGas, bumps) };
  }

  /**
   * After a reorg: the solver's transactions the chain no longer has (its nonce is back below
   * them) are sent again, same bytes and nonces, in nonce order — a refund or sweep that was
   * recorded stays paid, and later transactions do not wait behind a nonce gap. Returns their hashes.
   */
  async restoreDroppedByReorg(): Promise<Hex[]> {
    const { client, store, account, chainId } = this.deps;
    const chainNonce = await client.getTransactionCount({ address: account.address, blockTag: 'latest' });
    const resent: Hex[] = [];
    for (const tx of store.fromNonce(chainId, chainNonce)) {
      if (await this.hasTransaction(tx.txHash)) continue; // mined again, or waiting in the pool
      await client.sendRawTransaction({ serializedTransaction: tx.rawTx }).catch(() => undefined);
      resent.push(tx.txHash);
    }
    return resent;
  }

  /** Re-sends every transaction that was signed but never seen mined (after a restart). */
  async resumeUnsettled(): Promise<void> {
    for (const tx of this.deps.store.unsettled(this.deps.chainId)) await this.broadcast(tx.rawTx, tx.txHash, tx.id);
  }

  /** eth_estimateGas of the fill this wallet would send; a revert comes back decoded (SPEC §7.1). */
  async simulate(payment: SolverPayment): Promise<FillSimulation> {
    const { to, data, value } = this.buildCall('fill', payment);
    try {
      // prepare: false — a plain call needs none of viem's request preparation (blob hashes, fees)
      const gasUnits = await this.deps.client.estimateGas({ account: this.deps.account.address, to, data, value, prepare: false });
      return { ok: true, gasUnits };
    } catch (error) {
      if (error instanceof BaseError && error.walk((cause) => cause instanceof InsufficientFundsError)) {
        // the node refuses the call before running it: no revert data, named like the shortfall it is
        return {
          ok: false,
          failure: revertFailure({ kind: 'customError', errorName: 'InsufficientFunds', args: [], data: '0x' }, `the solver's native balance on chain ${this.deps.chainId} cannot pay this fill`),
        };
      }
      const revert = decodeRevert(error);
      if (!revert) throw error;
      return revert;
    }
  }

  waitForReceipt(hash: Hex) {
    return waitForReceipt(this.deps.client, hash);
  }

  private async signPersistBroadcast(requestId: Hex, kind: SolverTxKind, build: () => Promise<SolverCall>, options: SolverSendOptions): Promise<Hex> {
    const { store, client, account, chainId } = this.deps;
    const existing = store.find(requestId, kind);
    if (existing) {
      await this.broadcast(existing.rawTx, existing.txHash, existing.id);
      return existing.txHash;
    }
    if (this.nextNonce === undefined) {
      const chainNonce = await client.getTransactionCount({ address: account.address, blockTag: 'pending' });
      this.nextNonce = Math.max(chainNonce, store.highestNonce(chainId) + 1);
    }
    const nonce = this.nextNonce;
    const { to, data, value, gas: neededGas } = await build();
    // the fault "broadcast refused": a gas limit no block can hold, which the node refuses outright
    const gas = options.refusedByNode ? (await client.getBlock({ blockTag: 'latest' })).gasLimit + 1n : neededGas;
    const rawTx = await account.signTransaction({
      type: 'eip1559',
      chainId,
      nonce,
      to,
      data,
      value,
      gas,
      ...this.feesAfter(options.feeBumps ?? 0),
    });
    const txHash = keccak256(rawTx);
    store.insertSigned({ requestId, kind, chainId, nonce, txHash, rawTx, createdAt: this.deps.clock.now() });
    this.nextNonce = nonce + 1;
    const saved = store.find(requestId, kind);
    if (!saved) throw new Error(`solver transaction for ${requestId} was not saved`);
    try {
      await this.sendNew(saved.rawTx, saved.id);
    } catch (error) {
      this.nextNonce = undefined; // re-read from the chain next time
      const refusal = error instanceof BaseError ? error.walk((cause) => cause instanceof RpcRequestError) : null;
      if (refusal instanceof RpcRequestError) {
        // the node answered the send with an error: it never took the transaction, so nothing is kept
        store.forget(saved.id);
        const reason = refusal.details || refusal.shortMessage;
        // the solver's own funds cannot pay the value and gas: SPEC §7.2 SOLVER_BALANCE_TOO_LOW, as on the other kinds
        if (/insufficient funds/i.test(reason)) throw new SolverBalanceTooLowError(chainId, reason);
        throw new SolverBroadcastRefusedError(chainId, reason, error);
      }
      throw error;
    }
    return saved.txHash;
  }

  private buildCall(kind: 'fill' | 'refund', payment: SolverPayment): SolverCall {
    const { contracts } = this.deps;
    const gas = this.deps.gas();
    const recipient = payment.recipient as Address;
    const native = payment.currency.isNative;
    const margin = (units: bigint) => (units * 3n) / 2n;
    if (kind === 'fill' && payment.execution) {
      const { data, value } = encodeFillExecution(contracts.serviceReceiver, { ...payment, execution: payment.execution });
      return { to: contracts.serviceReceiver, data, value, gas: payment.execution.gasLimit ?? DEFAULT_EXECUTION_GAS };
    }
    if (kind === 'fill') {
      return native
        ? {
            to: contracts.serviceReceiver,
            data: encodeCall({ abi: serviceReceiverArtifact.abi, functionName: 'fillNative', args: [payment.requestId, recipient] }),
            value: payment.amount,
            gas: margin(gas.fillNative),
          }
        : {
            to: contracts.serviceReceiver,
            data: encodeCall({
              abi: serviceReceiverArtifact.abi,
              functionName: 'fillErc20',
              args: [payment.requestId, payment.currency.address, recipient, payment.amount],
            }),
            value: 0n,
            gas: margin(gas.fillErc20),
          };
    }
    return {
      to: contracts.depository,
      data: encodeCall({
        abi: depositoryArtifact.abi,
        functionName: 'transferOut',
        args: [payment.requestId, native ? zeroAddress : payment.currency.address, recipient, payment.amount],
      }),
      value: 0n,
      gas: margin(native ? gas.refundNative : gas.refundErc20),
    };
  }

  private async sendNew(rawTx: Hex, id: number): Promise<void> {
    await this.deps.client.sendRawTransaction({ serializedTransaction: rawTx });
    this.deps.store.setState(id, 'broadcast');
  }

  /** Sends saved bytes again unless they are already mined or known to the node. */
  private async broadcast(rawTx: Hex, txHash: Hex, id: number): Promise<void> {
    const { client, store } = this.deps;
    const mined = await client.getTransactionReceipt({ hash: txHash }).catch(() => undefined);
    if (!mined) {
      try {
        await client.sendRawTransaction({ serializedTransaction: rawTx });
      } catch (error) {
        // already in the pool or already mined under the same hash: nothing to do
        const again = await client.getTransactionReceipt({ hash: txHash }).catch(() => undefined);
        const known = await client.getTransaction({ hash: txHash }).catch(() => undefined);
        if (!again && !known) throw error;
      }
    }
    store.setState(id, 'broadcast');
  }
}
