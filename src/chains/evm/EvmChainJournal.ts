import { keccak256, type Block, type Hex, type PublicClient, type TestClient } from 'viem';
import type { ChainJournalStore, JournalForkBase } from '../../store/ChainJournalStore';
import type { EvmCallJournal } from './front/EvmCallJournal';
import type { JsonRpcCall } from './front/evmCallKinds';

/**
 * Keeps an EVM chain durable past a SIGKILL (Anvil writes `--state` only when it exits
 * gracefully): each block the watcher indexes is journaled — raw transactions and timestamp —
 * before anything it holds is acted on; at start, the blocks above the state Anvil loaded are mined
 * again from the journal, with their timestamps pinned, which gives back the same blocks and hashes.
 * With the front's journal of users' calls (`calls`), the cheats users made are made again between
 * the blocks they came between, and what came after the last indexed block (a transaction mined
 * just before the kill, the pool, cheats) is made again after it.
 * A forked chain's journal starts above the upstream block it forks (`forkBase`, pinned in the store
 * at its first start): the upstream's own blocks are never journaled, and the local ones are mined
 * again on the same block forked again.
 */
export class EvmChainJournal {
  constructor(
    private readonly deps: { chainId: number; client: PublicClient; testClient: TestClient; store: ChainJournalStore; log: (message: string) => void; calls?: EvmCallJournal; forkBase?: JournalForkBase },
  ) {}

  /** The block the chain starts from before any journaled one: its genesis, or the upstream block a fork is pinned at. */
  startNumber(): number {
    return this.deps.forkBase?.number ?? 0;
  }

  /** Journals one mined block (called by the watcher before the block's observations go out). */
  async record(block: Block): Promise<void> {
    if (block.number === null || block.hash === null) return;
    const { client } = this.deps;
    const hashes = (block.transactions.length > 0 ? block.transactions : (await client.getBlock({ blockHash: block.hash })).transactions).map((tx) =>
      typeof tx === 'string' ? tx : tx.hash,
    );
    const rawTransactions = await Promise.all(
      hashes.map((hash) => client.request({ method: 'eth_getRawTransactionByHash', params: [hash] } as never) as Promise<Hex>),
    );
    this.deps.store.put({ chainId: this.deps.chainId, number: Number(block.number), hash: block.hash, timestamp: Number(block.timestamp), rawTransactions });
  }

  /** Journals every block up to the head not journaled yet (genesis and the deployment included; a fork's from above its upstream block, pinned first). */
  async catchUp(): Promise<void> {
    const { client, store, chainId, forkBase } = this.deps;
    if (forkBase && !store.forkBase(chainId)) store.putForkBase(chainId, forkBase);
    const head = Number(await client.getBlockNumber({ cacheTime: 0 }));
    const first = Math.max(store.latestNumber(chainId) + 1, forkBase ? forkBase.number + 1 : 0);
    for (let number = first; number <= head; number++) {
      await this.record(await client.getBlock({ blockNumber: BigInt(number) }));
    }
  }

  /** Blocks from `number` on left the canonical chain (a reorg): forget them. */
  forgetFrom(number: number): void {
    this.deps.store.dropFrom(this.deps.chainId, number);
  }

  /** Whether the journal holds blocks the chain does not have. */
  hasBlocksAfter(head: number): boolean {
    return this.deps.store.latestNumber(this.deps.chainId) > head;
  }

  /** Mines again every journaled block above the chain's head, then what users sent after; returns how many blocks. */
  async replay(): Promise<number> {
    const { client, testClient, store, chainId } = this.deps;
    const head = Number(await client.getBlockNumber({ cacheTime: 0 }));
    const missing = store.after(chainId, head);
    if (missing.length === 0) return 0;
    const journaledTransactions = new Set(store.after(chainId, -1).flatMap((block) => block.rawTransactions.map((raw) => keccak256(raw))));
    const plan = this.deps.calls?.plan(missing[missing.length - 1]!.number, journaledTransactions);
    await testClient.setAutomine(false);
    try {
      for (const block of missing) {
        for (const call of plan?.beforeBlock.get(block.number) ?? []) await this.makeAgain(call);
        await testClient.setNextBlockTimestamp({ timestamp: BigInt(block.timestamp) });
        for (const raw of block.rawTransactions) await client.request({ method: 'eth_sendRawTransaction', params: [raw] } as never);
        await testClient.mine({ blocks: 1 });
        const mined = await client.getBlock({ blockNumber: BigInt(block.number) });
        if (mined.hash !== block.hash) {
          this.deps.log(`chain ${chainId}: block ${block.number} replayed with hash ${mined.hash}, journaled ${block.hash}`);
          store.put({ ...block, hash: mined.hash! });
        }
      }
    } finally {
      await testClient.setAutomine(plan?.automineAtTail ?? true);
    }
    if (plan) {
      for (const call of plan.tail) await this.makeAgain(call);
      if (plan.intervalMining) await this.makeAgain({ method: 'evm_setIntervalMining', params: [plan.intervalMining] });
    }
    return missing.length;
  }

  /** One journaled call made again; a refusal (a transaction the chain already has) is logged, not fatal. */
  private async makeAgain(call: JsonRpcCall): Promise<void> {
    await this.deps.client.request(call as never).catch((error: unknown) => {
      this.deps.log(`chain ${this.deps.chainId}: ${call.method} made again from the journal was refused: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    });
  }
}
