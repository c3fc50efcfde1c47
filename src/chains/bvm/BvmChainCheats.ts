import { UnsupportedOnChainError } from '../../errors/chainErrors';
import type { BvmNode } from '../../nodes/bvm';
import type { ChainCheats } from '../capabilities/ChainCheats';
import type { DoubleSpendCapability } from '../capabilities/DoubleSpendCapability';
import type { BvmChainHistory } from './BvmChainHistory';

/**
 * The Bitcoin chain's cheat calls (its `cheats`): blocks on request or on a virtual-clock interval,
 * the next block's time, reorgs (a competing branch; the dropped transactions back in the mempool),
 * snapshot / revert of the whole ledger and a user's double spend (`BvmChainHistory`). No code to
 * replace: that member is absent.
 */
export class BvmChainCheats implements ChainCheats {
  /** A user spending a deposit's inputs again (replace-by-fee, or in a reorg's replacing branch). */
  readonly doubleSpends: DoubleSpendCapability;

  constructor(private readonly deps: { chainId: number; node: BvmNode; history: BvmChainHistory }) {
    this.doubleSpends = deps.history;
  }

  async mine(blocks = 1): Promise<void> {
    this.deps.node.ledger.mine(blocks, this.deps.node.accounts.miner.script);
  }

  async isPending(txHash: string): Promise<boolean> {
    return this.deps.node.ledger.confirmations(txHash) === 0;
  }

  /**
   * Transactions wait in the mempool until a block is mined: automine is always off. A refusal of
   * one argument value (on), not of the call: off is what the chain does.
   */
  async setAutomine(enabled: boolean): Promise<void> {
    if (enabled) throw new UnsupportedOnChainError(`chain ${this.deps.chainId} (BVM) mines on generatetoaddress or every --bvm-block-time seconds, never per transaction`);
  }

  /** Mines a block every `seconds` of the virtual clock (0: off), the first `seconds` from now. */
  async setIntervalMining(seconds: number): Promise<void> {
    this.deps.node.setIntervalMining(seconds);
  }

  async setNextBlockTimestamp(unixSeconds: number): Promise<void> {
    this.deps.node.ledger.setNextBlockTimestamp(unixSeconds);
  }

  /** Block times follow the virtual clock, which `ChainControl.advanceTime` moves right after this. */
  async increaseTime(): Promise<void> {}

  /** The block timer as it is now (its period and the next block's due time), as a function that sets it so again. */
  async captureMining(): Promise<() => Promise<void>> {
    const restore = this.deps.node.captureBlockTimer();
    return async () => restore();
  }

  async snapshot(): Promise<string> {
    return this.deps.history.snapshot();
  }

  async revert(snapshotId: string): Promise<void> {
    return this.deps.history.revert(snapshotId);
  }

  async reorg(depth: number): Promise<void> {
    return this.deps.history.reorg(depth);
  }
}
