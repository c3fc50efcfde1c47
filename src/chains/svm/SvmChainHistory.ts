import type { VirtualClock } from '../../clock/VirtualClock';
import { UnsupportedOnChainError } from '../../errors/chainErrors';
import type { SvmLedgerHistory } from '../../nodes/svm';
import type { ChainIndexStore } from '../../store/ChainIndexStore';
import type { ChainObservation } from '../ChainAdapter';
import type { SvmLedgerAccess } from './SvmLedgerAccess';
import { SvmTransactionFaults } from './SvmTransactionFaults';

/**
 * The Solana chain's cheats that go back in its history (the control plane's `snapshot`,
 * `revert`, `reorg`), over the embedded ledger's `SvmLedgerHistory`; then the deposits indexed
 * in the slots it rolled back whose transactions the ledger no longer has are reported reorged
 * (`depositReorged`: the request fails with DEPOSIT_REORGED, as on EVM). With `--svm validator`
 * there is no history to go back in: each call is UNSUPPORTED_ON_CHAIN.
 */
export class SvmChainHistory {
  constructor(
    private readonly deps: {
      chainId: number;
      /** The embedded ledger's history (undefined with `--svm validator`), once started. */
      history: () => SvmLedgerHistory | undefined;
      ledger: () => SvmLedgerAccess;
      chainIndex: ChainIndexStore;
      clock: VirtualClock;
      emit: (observation: ChainObservation) => void;
    },
  ) {}

  async snapshot(): Promise<string> {
    return this.history('snapshot').snapshot();
  }

  async revert(snapshotId: string): Promise<void> {
    await this.reportRolledBack(await this.history('revert').revert(snapshotId));
  }

  /** The last `depth` slots rolled back (their transactions are gone: no mempool), then `depth` new empty slots. */
  async reorg(depth: number): Promise<void> {
    const history = this.history('reorg');
    await this.reportRolledBack(await history.rollBack(depth));
    await this.deps.ledger().mine(depth);
  }

  /** Deposits indexed above `slot` whose transaction is gone: marked reorged and reported. */
  private async reportRolledBack(slot: bigint): Promise<void> {
    const { chainIndex, chainId } = this.deps;
    for (const deposit of chainIndex.canonicalDepositsFrom(chainId, Number(slot) + 1)) {
      if (await this.deps.ledger().transaction(deposit.txHash)) continue;
      chainIndex.setDepositState(chainId, deposit.txHash, deposit.logIndex, 'reorged');
      this.deps.emit({ kind: 'depositReorged', deposit, detectedAt: this.deps.clock.now() });
    }
  }

  private history(call: string): SvmLedgerHistory {
    const history = this.deps.history();
    if (!history) throw new UnsupportedOnChainError(`chain ${this.deps.chainId} (SVM) runs on solana-test-validator (--svm validator), which cannot go back in its history: no ${call}`);
    return history;
  }
}


/** The Solana chain's fault parts: its history cheats, and its dropped transactions (`SvmTransactionFaults`). */
export function svmChainFaults(deps: ConstructorParameters<typeof SvmChainHistory>[0] & ConstructorParameters<typeof SvmTransactionFaults>[0]): {
  history: SvmChainHistory;
  drops: SvmTransactionFaults;
} {
  return { history: new SvmChainHistory(deps), drops: new SvmTransactionFaults(deps) };
}
