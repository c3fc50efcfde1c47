import type { Block, Hex, PublicClient, TestClient } from 'viem';
import type { ChainJournalStore } from '../../store/ChainJournalStore';

/**
 * Keeps an EVM chain durable past a SIGKILL (Anvil writes `--state` only when it exits
 * gracefully): each block the watcher indexes is journaled — raw transactions and timestamp —
 * before anything it holds is acted on; at start, the blocks above the state Anvil loaded are mined
 * again from the journal, with their timestamps pinned, which gives back the same blocks and hashes.
 */
export class EvmChainJournal {
  constructor(private readonly deps: { chainId: number; client: PublicClient; testClient: TestClient; store: ChainJournalStore; log: (message: string) => void }) {}

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

  /** Journals every block up to the head not journaled yet (genesis and the deployment included). */
  async catchUp(): Promise<void> {
    const { client, store, chainId } = this.deps;
    const head = Number(await client.getBlockNumber({ cacheTime: 0 }));
    for (let number = store.latestNumber(chainId) + 1; number <= head; number++) {
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

  /** Mines again every journaled block above the chain's head; returns how many. */
  async replay(): Promise<number> {
    const { client, testClient, store, chainId } = this.deps;
    const head = Number(await client.getBlockNumber({ cacheTime: 0 }));
    const missing = store.after(chainId, head);
    if (missing.length === 0) return 0;
    await testClient.setAutomine(false);
    try {
      for (const block of missing) {
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
      await testClient.setAutomine(true);
    }
    return missing.length;
  }
}
