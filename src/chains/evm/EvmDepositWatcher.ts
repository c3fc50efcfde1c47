import { createPublicClient, webSocket, type Address, type Block, type Hex, type PublicClient } from 'viem';
import { depositoryArtifact } from '../../../fixtures/contracts/artifacts.generated';
import type { VirtualClock, ClockTimer } from '../../clock/VirtualClock';
import type { ChainIndexStore, IndexedDeposit } from '../../store/ChainIndexStore';
import type { ChainObservation } from '../ChainAdapter';

/** How many recent block hashes are kept to find the fork point of a reorg. */
const KEPT_BLOCKS = 256;

/**
 * Follows one EVM chain block by block: stores each block's hash, finds depository deposits in
 * it, and notices reorgs by comparing stored hashes with the chain's (Anvil emits no
 * `removed: true` logs after `anvil_reorg`). New heads arrive over the node's websocket; a
 * slow poll on the virtual clock covers a missed notification.
 */
export class EvmDepositWatcher {
  private catchUpChain: Promise<void> = Promise.resolve();
  private unwatch: (() => void) | undefined;
  private wsClient: PublicClient | undefined;
  private pollTimer: ClockTimer | undefined;
  private stopped = false;
  private latestBaseFee = 0n;

  constructor(
    private readonly deps: {
      chainId: number;
      client: PublicClient;
      wsUrl: string;
      depository: Address;
      index: ChainIndexStore;
      clock: VirtualClock;
      pollIntervalMs: number;
      emit: (observation: ChainObservation) => void;
      onError: (error: unknown) => void;
    },
  ) {}

  /** The base fee of the newest block seen. */
  get baseFeePerGas(): bigint {
    return this.latestBaseFee;
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.catchUp();
    this.wsClient = createPublicClient({ transport: webSocket(this.deps.wsUrl) });
    this.unwatch = this.wsClient.watchBlockNumber({
      emitOnBegin: false,
      onBlockNumber: (blockNumber) => void this.catchUp(Number(blockNumber)).catch(this.deps.onError),
      onError: (error) => {
        if (!this.stopped) this.deps.onError(error);
      },
    });
    this.schedulePoll();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unwatch?.();
    this.pollTimer?.cancel();
    await this.catchUpChain.catch(() => undefined);
    if (this.wsClient) {
      const socket = await this.wsClient.transport.getRpcClient?.().catch(() => undefined);
      socket?.close();
    }
  }

  /**
   * Indexes everything up to the chain's head — at least up to `atLeastBlock` when a new-head
   * notification named it (Anvil can announce a head a moment before serving it over HTTP).
   * Calls are serialised.
   */
  catchUp(atLeastBlock?: number): Promise<void> {
    const run = this.catchUpChain.then(() => (this.stopped ? undefined : this.indexToHead(atLeastBlock)));
    this.catchUpChain = run.catch(() => undefined);
    return run;
  }

  private schedulePoll(): void {
    if (this.stopped) return;
    this.pollTimer = this.deps.clock.setTimeout(() => {
      void this.catchUp()
        .catch(this.deps.onError)
        .finally(() => this.schedulePoll());
    }, this.deps.pollIntervalMs);
  }

  private async latestBlock(atLeastBlock: number | undefined): Promise<Block> {
    let head = await this.deps.client.getBlock({ blockTag: 'latest' });
    for (let tries = 0; atLeastBlock !== undefined && Number(head.number) < atLeastBlock && tries < 200; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      head = await this.deps.client.getBlock({ blockTag: 'latest' });
    }
    return head;
  }

  private async indexToHead(atLeastBlock?: number): Promise<void> {
    const { client, index, chainId } = this.deps;
    const head = await this.latestBlock(atLeastBlock);
    if (head.hash === null || head.number === null) return;
    this.latestBaseFee = head.baseFeePerGas ?? 0n;
    const last = index.latestBlock(chainId);
    if (!last) {
      // first sight of this chain: nothing before the current head belongs to a request
      index.putBlock({ chainId, number: Number(head.number), hash: head.hash, parentHash: head.parentHash });
      return;
    }
    const forkPoint = await this.findForkPoint(Math.min(last.number, Number(head.number)));
    if (forkPoint < last.number) this.forgetBlocksAfter(forkPoint);

    for (let number = forkPoint + 1; number <= Number(head.number); number++) {
      const block = number === Number(head.number) ? head : await client.getBlock({ blockNumber: BigInt(number) });
      await this.indexBlock(block);
    }
    if (forkPoint < last.number) this.reportDepositsStillReorged(forkPoint);
    index.pruneBlocks(chainId, KEPT_BLOCKS);
  }

  /** The highest stored block whose hash the chain still has. */
  private async findForkPoint(startNumber: number): Promise<number> {
    const { client, index, chainId } = this.deps;
    let number = startNumber;
    for (;;) {
      const stored = index.block(chainId, number);
      if (!stored) return number;
      const onChain = await client.getBlock({ blockNumber: BigInt(number) }).catch(() => undefined);
      if (onChain && onChain.hash === stored.hash) return number;
      number -= 1;
      if (number < 0) return -1;
    }
  }

  /** Marks deposits above the fork point as reorged until a rescan finds them again. */
  private forgetBlocksAfter(forkPoint: number): void {
    const { index, chainId } = this.deps;
    for (const deposit of index.canonicalDepositsFrom(chainId, forkPoint + 1)) {
      index.setDepositState(chainId, deposit.txHash, deposit.logIndex, 'reorged');
    }
    index.dropBlocksFrom(chainId, forkPoint + 1);
  }

  private reportDepositsStillReorged(forkPoint: number): void {
    const { index, chainId } = this.deps;
    const stillMissing = index
      .depositsFromBlock(chainId, forkPoint + 1)
      .filter((deposit) => deposit.state === 'reorged' && !index.hasCanonicalCopy(deposit));
    for (const deposit of stillMissing) {
      this.deps.emit({ kind: 'depositReorged', deposit, detectedAt: this.deps.clock.now() });
    }
  }

  private async indexBlock(block: Block): Promise<void> {
    const { client, index, chainId, depository } = this.deps;
    if (block.hash === null || block.number === null) return;
    const logs = await client.getContractEvents({
      address: depository,
      abi: depositoryArtifact.abi,
      eventName: 'Deposit',
      blockHash: block.hash,
    });
    index.putBlock({ chainId, number: Number(block.number), hash: block.hash, parentHash: block.parentHash });
    for (const log of logs) {
      const deposit: IndexedDeposit = {
        chainId,
        txHash: log.transactionHash as Hex,
        logIndex: Number(log.logIndex),
        requestId: log.args.id as Hex,
        depositor: log.args.depositor as Address,
        currency: log.args.token as Address,
        amount: log.args.amount as bigint,
        blockNumber: Number(block.number),
        blockHash: block.hash,
        state: 'canonical',
      };
      if (index.insertDeposit(deposit)) this.deps.emit({ kind: 'deposit', deposit });
    }
  }
}
