import type { Address, Hex } from 'viem';
import type { IndexedDeposit } from '../../domain/chain/observedDeposit';
import type { ChainIndexStore } from '../../store/ChainIndexStore';
import type { ChainObservation } from '../ChainAdapter';
import { type LvmLedger, type LvmTransaction, ROUTE_PERP, USDC_ASSET } from '../../nodes/lvm';
import { LVM_CURRENCY_ADDRESS } from './lvmCurrencies';

const ZERO_MEMO = `0x${'00'.repeat(32)}`;

/**
 * Watches the exchange for deposits (SPEC §4.6 withdrawals): a transfer of USDC into the
 * depository account's collateral whose memo is a request id. Each is indexed (ChainIndexStore,
 * once) and reported to the solver. The ledger reports every transfer as it executes, so nothing
 * is polled; `catchUp` reads the ledger's transfers again (at start, after a journal replay).
 * Transfers of another asset or route into the depository are not deposits (they stay there).
 */
export class LvmDepositWatcher {
  private readonly detach: () => void;

  constructor(
    private readonly deps: {
      chainId: number;
      ledger: LvmLedger;
      depositoryIndex: number;
      chainIndex: ChainIndexStore;
      emit: (observation: ChainObservation) => void;
    },
  ) {
    this.detach = deps.ledger.onTransaction((transaction) => this.index(transaction));
  }

  stop(): void {
    this.detach();
  }

  /** Indexes every transfer into the depository, oldest first: only the ones not indexed yet are reported. */
  catchUp(): void {
    for (const tx of this.deps.ledger.transactionsOf(this.deps.depositoryIndex).reverse()) this.index(tx);
  }

  index(tx: LvmTransaction): void {
    if (tx.toAccountIndex !== this.deps.depositoryIndex || tx.assetIndex !== USDC_ASSET.index || tx.toRouteType !== ROUTE_PERP) return;
    if (tx.memo === ZERO_MEMO) return;
    const deposit: IndexedDeposit = {
      chainId: this.deps.chainId,
      // the exchange's own form: bare hex (SPEC §4.3, inTxs of this origin)
      txHash: tx.hash as Hex,
      logIndex: 0,
      requestId: tx.memo.toLowerCase() as Hex,
      depositor: String(tx.fromAccountIndex) as Address,
      currency: LVM_CURRENCY_ADDRESS as Address,
      amount: tx.amount,
      blockNumber: tx.blockHeight,
      blockHash: tx.blockHash as Hex,
      blockTimestamp: Math.floor(tx.executedAt / 1000),
      state: 'canonical',
    };
    if (this.deps.chainIndex.insertDeposit(deposit)) this.deps.emit({ kind: 'deposit', deposit });
  }
}
