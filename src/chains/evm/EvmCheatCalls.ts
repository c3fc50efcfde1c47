import { getAddress, type Hex, type TestClient } from 'viem';
import { ChainError } from '../../errors/IntentsimError';
import type { ChainCheats } from '../capabilities/ChainCheats';

/**
 * The cheat calls scenarios and tests use on an EVM chain (Anvil's `anvil_*` / `evm_*` methods
 * through viem's test client): mining, snapshots, reorgs and block time — the chain's `cheats`
 * capability, every optional one included.
 */
/** From about this height on Anvil keeps only its last ANVIL_SHORT_MEMORY_STATES states in memory (measured: depth 40 was safe at block 950, 12 was not at 1000). */
const ANVIL_SHORT_MEMORY_FROM_BLOCK = 800n;
const ANVIL_SHORT_MEMORY_STATES = 10;

export class EvmCheatCalls implements ChainCheats {
  /** The next block's base fee at each snapshot held, by Anvil's snapshot id. */
  private readonly baseFeeAtSnapshot = new Map<string, bigint>();

  constructor(
    private readonly deps: {
      /** The node's test client (after `startNode`). */
      testClient: () => TestClient;
      /** Indexes the chain after a change (the deposit watcher's catch-up). */
      afterChange: () => Promise<void>;
      /** Stops the deposit watcher's catch-ups until the returned function is called (`ChainCheats.pauseWatching`). */
      pauseWatching: () => Promise<() => void>;
      /** Holds users' changing calls at the chain's front (`ChainCheats.holdUserCalls`). */
      holdUserCalls: () => Promise<() => void>;
      /** Whether the state at a block holds the simulator's whole setup (contracts, pool, the solver's allowances): no reorg goes below it. */
      setupCompleteAt?: (blockNumber: bigint) => Promise<boolean>;
    },
  ) {}

  private get testClient(): TestClient {
    return this.deps.testClient();
  }

  async mine(blocks = 1): Promise<void> {
    await this.testClient.mine({ blocks });
    await this.deps.afterChange();
  }

  /** Whether the node holds the transaction in its pool, not yet mined. */
  async isPending(txHash: string): Promise<boolean> {
    const tx = await this.testClient.request({ method: 'eth_getTransactionByHash', params: [txHash] } as never).catch(() => null);
    return tx !== null && (tx as { blockNumber: string | null }).blockNumber === null;
  }

  /** Replaces the code at `address` (`anvil_setCode`). */
  async setCode(address: string, code: string): Promise<void> {
    await this.testClient.setCode({ address: getAddress(address), bytecode: code as Hex });
  }

  async setAutomine(enabled: boolean): Promise<void> {
    await this.testClient.setAutomine(enabled);
  }

  /**
   * Anvil's mining mode now (automine, or a block every N seconds, or neither), as a function that
   * sets it again: its `evm_revert` keeps the mode it has, a world revert puts back the snapshot's.
   */
  async captureMining(): Promise<() => Promise<void>> {
    const [automine, intervalSeconds] = await Promise.all([
      this.testClient.request({ method: 'anvil_getAutomine' } as never) as Promise<boolean>,
      this.testClient.request({ method: 'anvil_getIntervalMining' } as never) as Promise<number | null>,
    ]);
    // one call either way: automine on replaces interval mining; an interval of 0 turns both off
    return async () => {
      if (automine) await this.testClient.setAutomine(true);
      else await this.testClient.setIntervalMining({ interval: intervalSeconds ?? 0 });
    };
  }

  /** Mines a block every `seconds` (0: only on demand / automine). */
  async setIntervalMining(seconds: number): Promise<void> {
    await this.testClient.setIntervalMining({ interval: seconds });
  }

  /**
   * Anvil's snapshot, with the next block's base fee beside it: Anvil 1.7.1's `evm_revert` keeps
   * the fee state of the blocks it drops (fixed upstream after 1.7.1, foundry-rs/foundry#16241), so
   * the revert sets it back, and the next block's base fee (so a transaction's fees and hash) is
   * the one it would have been without the detour.
   */
  pauseWatching(): Promise<() => void> {
    return this.deps.pauseWatching();
  }

  holdUserCalls(): Promise<() => void> {
    return this.deps.holdUserCalls();
  }

  async snapshot(): Promise<string> {
    // neither call changes what the other reads: both in flight at once
    const [nextBaseFee, snapshotId] = await Promise.all([this.nextBlockBaseFee(), this.testClient.snapshot()]);
    if (nextBaseFee !== undefined) this.baseFeeAtSnapshot.set(snapshotId, nextBaseFee);
    return snapshotId;
  }

  /** Back to a snapshot (which is then used up, as Anvil does), its next block's base fee included. */
  async revert(snapshotId: string): Promise<void> {
    // evm_revert answers false for an id it does not know (viem's revert drops the answer)
    const reverted: unknown = await this.testClient.request({ method: 'evm_revert', params: [snapshotId as Hex] });
    if (reverted === false) throw new ChainError(`no snapshot ${snapshotId} on this chain (a snapshot can be reverted to once)`);
    const nextBaseFee = this.baseFeeAtSnapshot.get(snapshotId);
    // Anvil drops the snapshot reverted to and every later one (its ids count up)
    for (const held of [...this.baseFeeAtSnapshot.keys()]) if (BigInt(held) >= BigInt(snapshotId)) this.baseFeeAtSnapshot.delete(held);
    if (nextBaseFee !== undefined) await this.testClient.request({ method: 'anvil_setNextBlockBaseFeePerGas', params: [`0x${nextBaseFee.toString(16)}`] } as never);
    await this.deps.afterChange();
  }

  /** The pending block's base fee (undefined on a chain without EIP-1559 fees). */
  private async nextBlockBaseFee(): Promise<bigint | undefined> {
    const pending = (await this.testClient.request({ method: 'eth_getBlockByNumber', params: ['pending', false] } as never)) as { baseFeePerGas?: string | null } | null;
    return pending?.baseFeePerGas ? BigInt(pending.baseFeePerGas) : undefined;
  }

  /**
   * Replaces the last `depth` blocks with as many new, empty ones (`anvil_reorg` with positional
   * params `[depth, []]`): their transactions leave the canonical chain. The watcher notices by
   * comparing block hashes (Anvil emits no `removed` logs).
   */
  async reorg(depth: number): Promise<void> {
    // the blocks replaced are blocks the simulator has indexed: a block mined a moment ago (a refund
    // whose receipt was just seen) is caught up first, or its reorg would go unnoticed
    await this.deps.afterChange();
    const head = BigInt((await this.testClient.request({ method: 'eth_blockNumber' } as never)) as string);
    // Anvil keeps only its last few states in memory once a chain is some 900 blocks long, and a reorg
    // below them leaves the chain with no state at all (every contract gone): measured on Anvil 1.7
    if (head >= ANVIL_SHORT_MEMORY_FROM_BLOCK && depth > ANVIL_SHORT_MEMORY_STATES) {
      throw new ChainError(`a reorg of depth ${depth} on a chain ${head} blocks long: Anvil then holds only its last ${ANVIL_SHORT_MEMORY_STATES} states, and a deeper reorg would wipe the chain's whole state (docs/control-plane.md)`);
    }
    const setupCompleteAt = this.deps.setupCompleteAt;
    if (setupCompleteAt) {
      const kept = head - BigInt(depth);
      // a deeper reorg would take the simulator's own contracts (pools, tokens) off the chain: every later read of them fails
      if (kept < 0n) throw new ChainError(`a reorg of depth ${depth} is deeper than the chain (${head} blocks)`);
      if (!(await setupCompleteAt(kept))) throw new ChainError(`a reorg of depth ${depth} would replace blocks of the simulator's own setup (its contracts, pool and the solver's allowances are not all there at block ${kept})`);
    }
    await this.testClient.request({ method: 'anvil_reorg', params: [depth, []] } as never);
    await this.deps.afterChange();
  }

  /** The next block's timestamp, unix seconds. */
  async setNextBlockTimestamp(unixSeconds: number): Promise<void> {
    await this.testClient.setNextBlockTimestamp({ timestamp: BigInt(unixSeconds) });
  }

  async increaseTime(seconds: number): Promise<void> {
    await this.testClient.increaseTime({ seconds });
  }
}
