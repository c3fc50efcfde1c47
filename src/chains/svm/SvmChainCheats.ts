import { UnsupportedOnChainError } from '../../errors/chainErrors';
import type { ChainCheats } from '../capabilities/ChainCheats';
import type { SvmLedgerAccess } from './SvmLedgerAccess';

/**
 * The Solana chain's cheat calls (its `cheats`): slots on request, the next slot's time. No mempool
 * (automine only), no code to replace, and (for now) no snapshots or rollbacks: those members are
 * absent, or refuse the one value the chain cannot do.
 */
export class SvmChainCheats implements ChainCheats {
  constructor(private readonly deps: { chainId: number; /** The started chain's ledger. */ ledger: () => SvmLedgerAccess }) {}

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
    await this.deps.ledger().setNextBlockTimestamp(unixSeconds);
  }

  /** Slot times follow the virtual clock, which `ChainControl.advanceTime` moves right after this. */
  async increaseTime(): Promise<void> {}
}
