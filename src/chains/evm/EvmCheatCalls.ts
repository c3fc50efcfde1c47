import { ChainError } from '../../errors/IntentsimError';
import type { Hex, TestClient } from 'viem';

/**
 * The cheat calls scenarios and tests use on an EVM chain (Anvil's `anvil_*` / `evm_*` methods
 * through viem's test client): mining, snapshots, reorgs and block time.
 */
export class EvmCheatCalls {
  constructor(private readonly deps: { testClient: TestClient; afterChange: () => Promise<void> }) {}

  async mine(blocks: number): Promise<void> {
    await this.deps.testClient.mine({ blocks });
    await this.deps.afterChange();
  }

  /** Whether the node holds the transaction in its pool, not yet mined. */
  async isPending(txHash: Hex): Promise<boolean> {
    const tx = await this.deps.testClient.request({ method: 'eth_getTransactionByHash', params: [txHash] } as never).catch(() => null);
    return tx !== null && (tx as { blockNumber: string | null }).blockNumber === null;
  }

  /** Replaces the code at `address` (`anvil_setCode`). */
  async setCode(address: Hex, code: Hex): Promise<void> {
    await this.deps.testClient.setCode({ address, bytecode: code });
  }

  async setAutomine(enabled: boolean): Promise<void> {
    await this.deps.testClient.setAutomine(enabled);
  }

  /** Mines a block every `seconds` (0: only on demand / automine). */
  async setIntervalMining(seconds: number): Promise<void> {
    await this.deps.testClient.setIntervalMining({ interval: seconds });
  }

  async snapshot(): Promise<string> {
    return this.deps.testClient.snapshot();
  }

  /** Back to a snapshot (which is then used up, as Anvil does). */
  async revert(snapshotId: string): Promise<void> {
    // evm_revert answers false for an id it does not know (viem's revert drops the answer)
    const reverted: unknown = await this.deps.testClient.request({ method: 'evm_revert', params: [snapshotId as Hex] });
    if (reverted === false) throw new ChainError(`no snapshot ${snapshotId} on this chain (a snapshot can be reverted to once)`);
    await this.deps.afterChange();
  }

  /**
   * Replaces the last `depth` blocks with as many new, empty ones (`anvil_reorg` with positional
   * params `[depth, []]`): their transactions leave the canonical chain. The watcher notices by
   * comparing block hashes (Anvil emits no `removed` logs).
   */
  async reorg(depth: number): Promise<void> {
    await this.deps.testClient.request({ method: 'anvil_reorg', params: [depth, []] } as never);
    await this.deps.afterChange();
  }

  /** The next block's timestamp, unix seconds. */
  async setNextBlockTimestamp(unixSeconds: number): Promise<void> {
    await this.deps.testClient.setNextBlockTimestamp({ timestamp: BigInt(unixSeconds) });
  }

  async increaseTime(seconds: number): Promise<void> {
    await this.deps.testClient.increaseTime({ seconds });
  }
}
