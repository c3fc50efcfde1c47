import type { Hex } from 'viem';
import type { ChainAdapter } from '../chains/ChainAdapter';
import { requireSweep } from '../chains/capabilities/requireCapability';
import { countDeposit, refundRecipientOf } from '../domain/fill/depositAddressOutcome';
import type { RequestRecord, TransactionEntry } from '../domain/request/requestRecord';
import { recordRequestFacts, type RequestLifecycle } from '../lifecycle/transitionRequest';
import type { ChainIndexStore } from '../store/ChainIndexStore';
import type { DepositAddressPayment } from '../domain/chain/observedDeposit';
import type { SolverPayment } from '../domain/fill/solverPayment';
import { depositHeldBy } from './requestDeposits';

/**
 * The solver's part of deposit addresses (SPEC §1.6, §3 related rules): records who paid into a
 * request's deposit address and with which transaction (§2.3 `depositAddress.depositor`,
 * `depositTxHash`), sweeps the address into the depository — whose `Deposit` then drives the
 * request like any depository deposit — and pays back the excess of a strict overpayment.
 */
export class DepositAddressSweeper {
  constructor(
    private readonly deps: {
      chains: ReadonlyMap<number, ChainAdapter>;
      lifecycle: RequestLifecycle;
      chainIndex: ChainIndexStore;
      log: (message: string, error?: unknown) => void;
    },
  ) {}

  /** A payment arrived at the deposit address of `requestId` on `chain`. */
  async onPayment(chain: ChainAdapter, requestId: Hex, payment: DepositAddressPayment): Promise<void> {
    const record = this.deps.lifecycle.requests.get(requestId);
    if (!record?.depositAddress) {
      this.deps.log(`solver: payment ${payment.txHash} into a deposit address of unknown request ${requestId}; left there`);
      return;
    }
    if (record.depositAddress.depositTxHash === null) {
      recordRequestFacts(this.deps.lifecycle, record.id, (r) => {
        if (r.depositAddress) r.depositAddress = { ...r.depositAddress, depositor: payment.depositor, depositTxHash: payment.txHash };
      });
    }
    if (record.status !== 'waiting') return;
    const swept = await requireSweep(chain, `the sweep of the deposit address of ${record.id}`)(record.id, payment);
    if (swept.status !== 'success') this.deps.log(`solver: sweep ${swept.txHash} of the deposit address of ${record.id} reverted`);
  }

  /**
   * The separate refund leg of a strict overpayment (SPEC §3): the excess over the quoted input
   * goes to `refundTo`. Returns its `outTxs` entry, or nothing when there is no excess. Its receipt
   * is waited for through `awaitReceipt` (the solver's, which marks the wait for `Solver.idle`).
   */
  async refundExcess(record: RequestRecord, awaitReceipt: (chain: ChainAdapter, txHash: Hex, payment: SolverPayment) => Promise<TransactionEntry>): Promise<TransactionEntry[]> {
    if (record.depositAddress?.type !== 'strict') return [];
    const deposit = depositHeldBy(this.deps.chainIndex, record);
    if (!deposit) return [];
    const counted = countDeposit(record, deposit.amount);
    if (counted.kind !== 'count' || counted.excess === 0n) return [];
    const origin = this.deps.chains.get(deposit.chainId);
    const currency = origin?.findCurrency(deposit.currency);
    if (!origin || !currency) return [];
    const payment: SolverPayment = { requestId: record.id, currency, recipient: refundRecipientOf(record, deposit.depositor), amount: counted.excess };
    const sent = await origin.solverWallet.sendPayment('refund', payment);
    return [await awaitReceipt(origin, sent.txHash, payment)];
  }
}
