import type { Hex } from 'viem';
import type { ChainAdapter } from '../chains/ChainAdapter';
import type { IndexedDeposit } from '../domain/chain/observedDeposit';
import type { ChainFailure } from '../domain/fill/chainFailure';
import { refundRecipientOf } from '../domain/fill/depositAddressOutcome';
import { refundFailReasonBeforeSending } from '../domain/fill/refundFailReason';
import type { SolverPayment } from '../domain/fill/solverPayment';
import type { RequestRecord, TransactionEntry } from '../domain/request/requestRecord';
import type { FailReason } from '../domain/request/requestStatus';
import { recordRequestFacts, transitionRequest, type RequestFacts, type RequestLifecycle } from '../lifecycle/transitionRequest';

/** Waits for the receipt of a solver transaction made for `requestId`. */
export type AwaitSolverReceipt = (chain: ChainAdapter, requestId: string, txHash: Hex, kind: 'fill' | 'refund', payment: SolverPayment) => Promise<TransactionEntry>;

export interface RefundDepositDeps {
  lifecycle: RequestLifecycle;
  chainFor: (chainId: number) => ChainAdapter;
  awaitReceipt: AwaitSolverReceipt;
  log: (message: string, error?: unknown) => void;
}

/** Ends a request in `failure` with these facts: a transition, or facts only when it has already failed. */
export function settleAsFailure(lifecycle: RequestLifecycle, requestId: string, update: (facts: RequestFacts) => void): void {
  const current = lifecycle.requests.get(requestId);
  if (current?.status === 'failure') recordRequestFacts(lifecycle, requestId, update);
  else transitionRequest(lifecycle, { requestId, to: 'failure', update });
}

/**
 * Pays the deposit back to the depositor (or `refundTo`) on the origin chain and records the
 * refund: `refund` when it is mined. A deposit worth no more than the refund's gas is not sent
 * back (refundFailReason AMOUNT_TOO_LOW_TO_REFUND, SPEC §7.4); a refund that reverts is recorded
 * in `outTxs` with status failure. Either way the request ends in `failure`.
 */
export async function refundDeposit(deps: RefundDepositDeps, record: RequestRecord, deposit: IndexedDeposit, failReason: FailReason, failure?: ChainFailure): Promise<void> {
  // the reason, and the simulated fill's failure when that is why (SPEC §2.4 details)
  const recordReason = (r: RequestFacts) => {
    r.failReason = failReason;
    if (failure) r.failedRevert = failure.details;
  };
  const origin = deps.chainFor(deposit.chainId);
  const currency = origin.findCurrency(deposit.currency);
  if (!currency) {
    deps.log(`solver: cannot refund ${record.id}: unknown currency ${deposit.currency}`);
    return;
  }
  const refundFailReason = refundFailReasonBeforeSending({ amount: deposit.amount, currency }, origin.gasCosts.refund(currency));
  if (refundFailReason) {
    settleAsFailure(deps.lifecycle, record.id, (r) => {
      recordReason(r);
      r.refundFailReason = refundFailReason;
    });
    return;
  }
  const payment: SolverPayment = { requestId: record.id, currency, recipient: refundRecipientOf(record, deposit.depositor), amount: deposit.amount };
  const sent = await origin.solverWallet.sendPayment('refund', payment);
  const entry = await deps.awaitReceipt(origin, record.id, sent.txHash, 'refund', payment);
  if (entry.status === 'success') {
    transitionRequest(deps.lifecycle, {
      requestId: record.id,
      to: 'refund',
      update: (r) => {
        recordReason(r);
        r.outTxs.push(entry);
      },
    });
    return;
  }
  deps.log(`solver: refund ${entry.txHash} of ${record.id} reverted on chain ${entry.chainId}; the request stays failed`);
  settleAsFailure(deps.lifecycle, record.id, (r) => {
    recordReason(r);
    r.outTxs.push(entry);
  });
}
