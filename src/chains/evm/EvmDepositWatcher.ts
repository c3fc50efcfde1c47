import { createPublicClient, encodeEventTopics, formatBlock, webSocket, type Address, type Block, type Hex, type PublicClient, type RpcBlock } from 'viem';
import { depositoryArtifact } from '../../../fixtures/contracts/artifacts.generated';
import type { VirtualClock, ClockTimer } from '../../clock/VirtualClock';
import type { ChainIndexStore } from '../../store/ChainIndexStore';
import type { ChainObservation } from '../ChainAdapter';
import type { IndexedDeposit } from '../../domain/chain/observedDeposit';
import { logsBloomFilter } from './logsBloom';

/** How many recent block hashes are kept to find the fork point of a reorg. */
const KEPT_BLOCKS = 256;
/** The depository's `Deposit` event topic. */
const DEPOSIT_TOPIC = encodeEventTopics({ abi: depositoryArtifact.abi, eventName: 'Deposit' })[0]!;

/**
 * Follows one EVM chain block by block: stores each block's hash, finds depository deposits in
 * it, and notices reorgs by comparing stored hashes with the chain's (Anvil emits no
 * `removed: true` logs after `anvil_reorg`). New heads arrive over the node's websocket; a
 * slow poll on the virtual clock covers a missed notification.
 */
export class EvmDepositWatcher {
  private catchUpChain: Promise<void> = Promise.resolve();
  /** The fork point of a reorg whose new branch a catch-up could not walk to the end (a second reorg under it). */
  private unreportedForkPoint: number | undefined;
  private unwatch: (() => void) | undefined;
  private wsClient: PublicClient | undefined;
  private pollTimer: ClockTimer | undefined;
  private stopped = false;
  /** While paused, a catch-up indexes nothing (`pause`). */
  private paused = false;
  private latestBaseFee = 0n;
  /** Whether a block's bloom may hold a Deposit of the depository. */
  private readonly mayHoldDeposits: (logsBloom: Hex | null | undefined) => boolean;

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
      /** A block was indexed, or blocks were forgotten by a reorg: the chain's state changed. */
      onBlocksIndexed?: () => void;
      /** Looks at each block before it counts as indexed (deposit-address payments); a failure retries the block. */
      inspectBlock?: (block: Block) => Promise<void>;
      /** Journals each block before its observations go out, and forgets reorged ones (durable chains). */
      journal?: { record(block: Block): Promise<void>; forgetFrom(number: number): void };
      /** Blocks above `forkPoint` were replaced (a reorg), after the new ones are indexed. */
      onReorged?: (forkPoint: number) => Promise<void>;
      onError: (error: unknown) => void;
    },
  ) {
    this.mayHoldDeposits = logsBloomFilter([deps.depository, DEPOSIT_TOPIC]);
  }

  /** The base fee of the newest block seen. */
  get baseFeePerGas(): bigint {
    return this.latestBaseFee;
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.catchUp();
    // newHeads carries the header itself; viem's watchBlocks would fetch every block again
    this.wsClient = createPublicClient({ transport: webSocket(this.deps.wsUrl, { reconnect: false }) });
    const subscription = await this.wsClient.transport.subscribe({
      params: ['newHeads'],
      onData: (data: { result?: RpcBlock }) => {
        if (!data.result) return;
        void this.catchUp(formatBlock(data.result) as Block).catch(this.deps.onError);
      },
      onError: (error: unknown) => {
        if (!this.stopped) this.deps.onError(error);
      },
    });
    this.unwatch = () => void subscription.unsubscribe().catch(() => undefined);
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
   * Indexes everything up to the chain's head. A new-head notification carries the header:
   * when it extends the last indexed block, only its logs are fetched; otherwise (a gap or a
   * reorg) the chain is walked over HTTP. Calls are serialised.
   */
  catchUp(announced?: Block): Promise<void> {
    const run = this.catchUpChain.then(() => (this.stopped || this.paused ? undefined : this.indexToHead(announced)));
    this.catchUpChain = run.catch(() => undefined);
    return run;
  }

  /**
   * A user's call through the chain's front changed its state (a sent transaction: with automine
   * its block is mined by the time the node answers): index up to the head now instead of waiting
   * for the block's notification, which comes several milliseconds later. The notification then
   * finds the block indexed and does nothing.
   */
  stateChanged(): void {
    if (this.stopped) return;
    void this.catchUp().catch(this.deps.onError);
  }

  /**
   * From now until `resume()`, a catch-up (a block notification, the poll, `catchUp()`) indexes
   * nothing; resolves once the one running now is done. A world revert: a block of the world left
   * behind must not be written to the index the revert put back (the chain would then look reorged).
   */
  async pause(): Promise<void> {
    this.paused = true;
    await this.catchUpChain;
  }

  /** Catch-ups index again (the next one reads the chain as it is now). */
  resume(): void {
    this.paused = false;
  }

  private schedulePoll(): void {
    if (this.stopped) return;
    this.pollTimer = this.deps.clock.setTimeout(() => {
      void this.catchUp()
        .catch(this.deps.onError)
        .finally(() => this.schedulePoll());
    }, this.deps.pollIntervalMs);
  }

  /** The chain's latest block — at least `atLeastBlock` (Anvil can announce a head a moment before serving it over HTTP). */
  private async latestBlock(atLeastBlock: bigint | undefined): Promise<Block> {
    let head = await this.deps.client.getBlock({ blockTag: 'latest' });
    for (let tries = 0; atLeastBlock !== undefined && head.number !== null && head.number < atLeastBlock && tries < 200; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      head = await this.deps.client.getBlock({ blockTag: 'latest' });
    }
    return head;
  }

  private async indexToHead(announced?: Block): Promise<void> {
    const { client, index, chainId } = this.deps;
    if (announced?.hash && announced.number !== null) {
      const last = index.latestBlock(chainId);
      if (last && Number(announced.number) <= last.number && index.block(chainId, Number(announced.number))?.hash === announced.hash) return;
      if (last && last.hash === announced.parentHash && Number(announced.number) === last.number + 1) {
        const indexed = await this.indexBlock(announced).then(
          () => true,
          () => false, // not served over HTTP yet: walk the chain below instead
        );
        if (indexed) {
          this.latestBaseFee = announced.baseFeePerGas ?? this.latestBaseFee;
          index.pruneBlocks(chainId, KEPT_BLOCKS);
          return;
        }
      }
    }
    const head = await this.latestBlock(announced?.number ?? undefined);
    if (head.hash === null || head.number === null) return;
    this.latestBaseFee = head.baseFeePerGas ?? 0n;
    const last = index.latestBlock(chainId);
    if (!last) {
      // first sight of this chain: nothing before the current head belongs to a request
      index.putBlock({ chainId, number: Number(head.number), hash: head.hash, parentHash: head.parentHash });
      return;
    }
    // the head is the block indexed last (a poll with nothing new, a world revert): nothing to walk
    if (head.hash === last.hash && this.unreportedForkPoint === undefined) return;
    // the head extends the block indexed last (a transaction just mined): no fork to look for
    const extendsLast = head.parentHash === last.hash && Number(head.number) === last.number + 1 && this.unreportedForkPoint === undefined;
    const forkPoint = extendsLast ? last.number : await this.findForkPoint(Math.min(last.number, Number(head.number)));
    if (forkPoint < last.number) this.forgetBlocksAfter(forkPoint);

    for (let number = forkPoint + 1; number <= Number(head.number); number++) {
      const block = number === Number(head.number) ? head : await client.getBlock({ blockNumber: BigInt(number) });
      const indexed = await this.indexBlock(block).then(
        () => true,
        async (error: unknown) => {
          // a reorg between reading the block and its logs ("unknown block"): the next catch-up walks the new branch
          if (await this.replacedSince(block)) return false;
          throw error;
        },
      );
      if (!indexed) {
        // what was indexed stands; the reorg is reported once a catch-up walks the whole new branch
        if (forkPoint < last.number) this.unreportedForkPoint = Math.min(this.unreportedForkPoint ?? forkPoint, forkPoint);
        return;
      }
    }
    const reportFrom = Math.min(this.unreportedForkPoint ?? Number.POSITIVE_INFINITY, forkPoint < last.number ? forkPoint : Number.POSITIVE_INFINITY);
    if (Number.isFinite(reportFrom)) {
      this.unreportedForkPoint = undefined;
      this.reportDepositsStillReorged(reportFrom);
      await this.deps.onReorged?.(reportFrom);
    }
    index.pruneBlocks(chainId, KEPT_BLOCKS);
  }

  /** Whether the chain no longer has `block` at its height (a reorg replaced it while it was being read). */
  private async replacedSince(block: Block): Promise<boolean> {
    if (block.number === null) return false;
    const now = await this.deps.client.getBlock({ blockNumber: block.number }).catch(() => undefined);
    return now?.hash !== block.hash;
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
    this.deps.onBlocksIndexed?.();
    this.deps.journal?.forgetFrom(forkPoint + 1);
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
    // a block whose bloom has no Deposit of the depository (most: fills, transfers) is not asked for its logs
    const [logs] = await Promise.all([
      this.mayHoldDeposits(block.logsBloom) ? client.getContractEvents({ address: depository, abi: depositoryArtifact.abi, eventName: 'Deposit', blockHash: block.hash }) : [],
      this.deps.inspectBlock?.(block),
      this.deps.journal?.record(block),
    ]);
    index.putBlock({ chainId, number: Number(block.number), hash: block.hash, parentHash: block.parentHash });
    this.deps.onBlocksIndexed?.();
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
        blockTimestamp: Number(block.timestamp),
        state: 'canonical',
      };
      if (index.insertDeposit(deposit)) this.deps.emit({ kind: 'deposit', deposit });
    }
  }
}
