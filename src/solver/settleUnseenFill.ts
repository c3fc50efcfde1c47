import type { ChainAdapter } from '../chains/ChainAdapter';
import type { VirtualClock } from '../clock/VirtualClock';
import { unseenFillStep } from '../domain/fill/fillInclusion';
import { transitionRequest, type RequestFacts, type RequestLifecycle } from '../lifecycle/transitionRequest';
import { firstStatusAt } from './requestDeposits';

/** What became of a `submitted` request whose fill its chain had not seen. */
export type UnseenFillOutcome = 'not-submitted' | 'seen' | 'rebroadcast' | 'not-included';

/**
 * SPEC §7.2 TRANSACTION_NOT_INCLUDED: looks at a `submitted` request's fill on its chain. Seen
 * (in the pool or mined): nothing changes, its receipt settles it. Unseen before the inclusion
 * window has elapsed since the first broadcast: → pending, to be sent again (with higher fees).
 * Unseen after, or unable to land any more (the solver wallet's `transactionStatus` is `expired`:
 * a Solana fill whose blockhash expired, whatever the window): → failure with TRANSACTION_NOT_INCLUDED (the caller
 * refunds the deposit).
 */
export async function settleUnseenFill(
  deps: { lifecycle: RequestLifecycle; chains: ReadonlyMap<number, ChainAdapter>; clock: VirtualClock; fillInclusionWindowSeconds: number },
  requestId: string,
): Promise<UnseenFillOutcome> {
  const { requests } = deps.lifecycle;
  const record = requests.get(requestId);
  const unseen = record?.status === 'submitted' ? record.submittedTxs.find((tx) => tx.type === 'fill') : undefined;
  const chain = unseen ? deps.chains.get(unseen.chainId) : undefined;
  if (!record || !unseen || !chain) return 'not-submitted';
  const status = await chain.solverWallet.transactionStatus(unseen.txHash);
  if (status === 'seen') return 'seen';
  // a transaction that can no longer land (Solana: its blockhash expired) is not sent again
  const step = status === 'expired' ? 'give-up' : unseenFillStep({
    firstBroadcastAtMs: firstStatusAt(requests, record.id, 'submitted') ?? deps.clock.now(),
    nowMs: deps.clock.now(),
    windowSeconds: deps.fillInclusionWindowSeconds,
  });
  const forgetUnseen = (r: RequestFacts) => {
    r.submittedTxs = r.submittedTxs.filter((tx) => tx.txHash !== unseen.txHash);
    r.fillAmount = null;
  };
  if (step === 'rebroadcast') {
    transitionRequest(deps.lifecycle, { requestId: record.id, to: 'pending', update: forgetUnseen });
    return 'rebroadcast';
  }
  transitionRequest(deps.lifecycle, {
    requestId: record.id,
    to: 'failure',
    update: (r) => {
      forgetUnseen(r);
      r.failReason = 'TRANSACTION_NOT_INCLUDED';
    },
  });
  return 'not-included';
}
