import { UnsupportedOnChainError } from '../../errors/chainErrors';
import { ChainError } from '../../errors/IntentsimError';
import type { LvmLedger } from '../../nodes/lvm';
import type { ChainCheats } from '../capabilities/ChainCheats';
import type { ExchangeAccountControls } from '../capabilities/ExchangeAccountControls';

/**
 * Lighter's cheat calls (its `cheats`): blocks on request, the next block's time, snapshots of the
 * ledger. No mempool (a transfer executes as it arrives), no code, and (for now) no reorgs: those
 * members are absent, or refuse the one value the chain cannot do.
 */
export class LvmChainCheats implements ChainCheats {
  readonly exchangeAccounts: ExchangeAccountControls;

  constructor(private readonly deps: { chainId: number; ledger: LvmLedger; exchangeAccounts: ExchangeAccountControls }) {
    this.exchangeAccounts = deps.exchangeAccounts;
  }

  async mine(blocks = 1): Promise<void> {
    this.deps.ledger.mine(blocks);
  }

  async isPending(): Promise<boolean> {
    return false; // no mempool: a transfer executes as it arrives
  }

  /** A refusal of one argument value (off), not of the call: on is what the chain does. */
  async setAutomine(enabled: boolean): Promise<void> {
    if (!enabled) throw new UnsupportedOnChainError(`chain ${this.deps.chainId} (the exchange) executes every transfer as it arrives (no mempool to hold it)`);
  }

  /** A refusal of every value but 0 (off), which is what the chain does. */
  async setIntervalMining(seconds: number): Promise<void> {
    if (seconds !== 0) throw new UnsupportedOnChainError(`chain ${this.deps.chainId} (the exchange) makes a block per transfer; interval mining is not simulated`);
  }

  async snapshot(): Promise<string> {
    return this.deps.ledger.snapshot();
  }

  /** An id no snapshot has is refused, as the EVM chains' node refuses it. */
  async revert(snapshotId: string): Promise<void> {
    if (!this.deps.ledger.revert(snapshotId)) throw new ChainError(`chain ${this.deps.chainId} (the exchange): no snapshot ${snapshotId}`);
  }

  async setNextBlockTimestamp(unixSeconds: number): Promise<void> {
    this.deps.ledger.setNextBlockTimestamp(unixSeconds);
  }

  /** Block times follow the virtual clock, which `ChainControl.advanceTime` moves right after this. */
  async increaseTime(): Promise<void> {}
}
