import { UnsupportedOnChainError } from '../../errors/chainErrors';
import type { ChainCheats } from '../capabilities/ChainCheats';
import type { TransactionFaultCapability } from '../capabilities/TransactionFaultCapability';
import type { SvmChainHistory } from './SvmChainHistory';
import type { SvmLedgerAccess } from './SvmLedgerAccess';

/**
 * The Solana chain's cheat calls (its `cheats`): slots on request, the next slot's time. No mempool
 * (automine only) and no code to replace: those members are absent, or refuse the one value the
 * chain cannot do. On the embedded ledger (not `--svm validator`) also snapshot / revert / reorg
 * (`SvmChainHistory`: a rollback replays the journal) and dropped transactions.
 */
export class SvmChainCheats implements ChainCheats {
  readonly snapshot?: () => Promise<string>;
  readonly revert?: (snapshotId: string) => Promise<void>;
  readonly reorg?: (depth: number) => Promise<void>;
  readonly transactionFaults?: TransactionFaultCapability;

  constructor(
    private readonly deps: {
      chainId: number;
      /** The started chain's ledger. */
      ledger: () => SvmLedgerAccess;
      /** The embedded ledger's history and drop fault; absent with `--svm validator`. */
      history?: SvmChainHistory;
      transactionFaults?: TransactionFaultCapability;
    },
  ) {
    const { history } = deps;
    if (history) {
      this.snapshot = () => history.snapshot();
      this.revert = (snapshotId) => history.revert(snapshotId);
      this.reorg = (depth) => history.reorg(depth);
    }
    this.transactionFaults = deps.transactionFaults;
  }

  async mine(blocks = 1): Promise<void> {
    await this.deps.ledger().mine(blocks);
  }

  async isPending(): Promise<boolean> {
    return false; // no mempool: a transaction is mined as it arrives
  }

  /** A refusal of one argument value (off), not of the call: on is what the chain does. */
  async setAutomine(enabled: boolean): Promise<void> {
    if (!enabled) throw new UnsupportedOnChainError(`chain ${this.deps.chainId} (SVM) mines every transaction as it arrives (no mempool to hold it)`);
  }

  /** A refusal of every value but 0 (off), which is what the chain does. */
  async setIntervalMining(seconds: number): Promise<void> {
    if (seconds !== 0) throw new UnsupportedOnChainError(`chain ${this.deps.chainId} (SVM) mines a slot per transaction; interval mining is not simulated`);
  }

  async setNextBlockTimestamp(unixSeconds: number): Promise<void> {
    const ledger = this.deps.ledger();
    // a refusal of the validator mode, not of the call: the embedded ledger sets it
    if (!ledger.setNextBlockTimestamp) throw new UnsupportedOnChainError(`chain ${this.deps.chainId} (SVM): the validator makes its slots on its own clock: the next slot time cannot be set (--svm embedded can)`);
    await ledger.setNextBlockTimestamp(unixSeconds);
  }

  /** Slot times follow the virtual clock, which `ChainControl.advanceTime` moves right after this. */
  async increaseTime(): Promise<void> {}
}
