import { address as toAddress, lamports, type Address, type Instruction, type MaybeEncodedAccount } from '@solana/kit';
import WebSocket from 'ws';
import { ChainError } from '../../errors/IntentsimError';
import { callSvmRpc, decodeSvmTransaction, type SvmBlock, type SvmSimulation, type SvmTransactionRecord, SvmTransactionRejectedError, SvmRpcError, type SvmTokenBalance, type SvmTransactionErrorJson, signSvmWire, type SvmSigner } from '../../nodes/svm';
import type { SvmLedgerAccess } from './SvmLedgerAccess';

/** Every read asks for `confirmed`: what `solana-test-validator` has voted on (its only validator). */
const COMMITMENT = 'confirmed';
/** How long a sent transaction may go unconfirmed before it counts as dropped (a blockhash lives ~60 s). */
const CONFIRM_TIMEOUT_MS = 60_000;
/** Pause between two status polls of a sent transaction, and between two slot polls in `mine`. */
const POLL_PAUSE_MS = 50;
/** getBlock errors for a slot that has no block and never will: cleaned up, skipped, missing in long-term storage. */
const NO_BLOCK_CODES = new Set([-32001, -32007, -32009]);
/** getBlock's error for a block the node has not made available yet (read it again later). */
const BLOCK_NOT_AVAILABLE = -32004;
/** The most slots one `sync` walks (the rest on the next one). */
const SLOTS_PER_SYNC = 512;

interface RpcAccount {
  lamports: number;
  owner: string;
  data: [string, string];
  executable: boolean;
  space?: number;
}

interface RpcTransaction {
  slot: number;
  blockTime: number | null;
  transaction: [string, string];
  meta: {
    err: SvmTransactionErrorJson | null;
    fee: number;
    preBalances: number[];
    postBalances: number[];
    preTokenBalances?: SvmTokenBalance[];
    postTokenBalances?: SvmTokenBalance[];
    logMessages?: string[] | null;
    loadedAddresses?: { writable: string[]; readonly: string[] };
    computeUnitsConsumed?: number;
  } | null;
}

/**
 * A `solana-test-validator` (or any Solana node) behind the adapter's interface, reached only
 * through its JSON-RPC and its websocket (the RPC port + 1): accounts and transactions are read
 * over RPC, transactions are signed here and sent with `sendTransaction`, and mined transactions
 * are heard by walking the node's blocks (`getBlock`), woken by its `slotSubscribe` notifications
 * and by a poll every `pollIntervalMs` as a fallback. What it cannot do over RPC: set the next
 * slot's time (the validator's slots follow its own clock).
 */
export class RpcSvmLedger implements SvmLedgerAccess {
  private readonly listeners = new Set<(record: SvmTransactionRecord) => void>();
  private readonly heard = new Set<string>();
  private readonly blocks = new Map<bigint, SvmBlock>();
  private lastReadSlot: bigint | undefined;
  private syncing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private socket: WebSocket | undefined;
  private closed = false;

  constructor(private readonly options: { rpcUrl: string; wsUrl: string; pollIntervalMs: number; onError: (error: Error) => void }) {}

  /** Reads from the node's current slot on (what was mined before is genesis to the adapter), then follows it. */
  async start(): Promise<void> {
    this.lastReadSlot = BigInt(await this.call<number>('getSlot', [{ commitment: COMMITMENT }]));
    this.timer = setInterval(() => void this.sync().catch((error: Error) => this.options.onError(error)), this.options.pollIntervalMs);
    this.timer.unref();
    this.subscribeToSlots();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    this.socket?.terminate();
    await this.syncing.catch(() => undefined);
  }

  async account(address: Address): Promise<MaybeEncodedAccount> {
    const { value } = await this.call<{ value: RpcAccount | null }>('getAccountInfo', [address, { encoding: 'base64', commitment: COMMITMENT }]);
    if (!value) return { exists: false, address };
    const data = new Uint8Array(Buffer.from(value.data[0], 'base64'));
    return { exists: true, address, data, executable: value.executable, lamports: lamports(BigInt(value.lamports)), programAddress: toAddress(value.owner), space: BigInt(value.space ?? data.length) };
  }

  async balance(address: Address): Promise<bigint> {
    return BigInt((await this.call<{ value: number }>('getBalance', [address, { commitment: COMMITMENT }])).value);
  }

  async minimumBalanceForRentExemption(dataLength: bigint): Promise<bigint> {
    return BigInt(await this.call<number>('getMinimumBalanceForRentExemption', [Number(dataLength)]));
  }

  async block(slot: bigint): Promise<SvmBlock | undefined> {
    const block = await this.readBlock(slot);
    return block === 'not yet' ? undefined : block;
  }

  /** A slot's block; undefined when the slot has none; 'not yet' when the node has not made it available. */
  private async readBlock(slot: bigint): Promise<SvmBlock | undefined | 'not yet'> {
    const kept = this.blocks.get(slot);
    if (kept) return kept;
    let answer: { blockhash: string; previousBlockhash: string; parentSlot: number; blockTime: number | null; signatures?: string[] } | null;
    try {
      answer = await this.call('getBlock', [Number(slot), { commitment: COMMITMENT, transactionDetails: 'signatures', rewards: false, maxSupportedTransactionVersion: 0 }]);
    } catch (error) {
      if (error instanceof SvmRpcError && NO_BLOCK_CODES.has(error.code)) return undefined;
      if (error instanceof SvmRpcError && error.code === BLOCK_NOT_AVAILABLE) return 'not yet';
      throw error;
    }
    if (!answer) return undefined;
    const block: SvmBlock = { slot, parentSlot: BigInt(answer.parentSlot), blockhash: answer.blockhash, previousBlockhash: answer.previousBlockhash, blockTime: answer.blockTime ?? 0, signatures: answer.signatures ?? [] };
    this.blocks.set(slot, block);
    return block;
  }

  async keptTransactions(): Promise<SvmTransactionRecord[]> {
    return []; // the validator's blocks are read from the slot it was at when the simulator attached (docs/chains/solana.md ("--svm validator"))
  }

  async transaction(signature: string): Promise<SvmTransactionRecord | undefined> {
    const answer = await this.call<RpcTransaction | null>('getTransaction', [signature, { encoding: 'base64', commitment: COMMITMENT, maxSupportedTransactionVersion: 0 }]);
    if (!answer?.meta) return undefined;
    const wire = new Uint8Array(Buffer.from(answer.transaction[0], 'base64'));
    const decoded = decodeSvmTransaction(wire);
    const loaded = { writable: (answer.meta.loadedAddresses?.writable ?? []).map(toAddress), readonly: (answer.meta.loadedAddresses?.readonly ?? []).map(toAddress) };
    return {
      signature: decoded.signature,
      slot: BigInt(answer.slot),
      blockTime: answer.blockTime ?? 0,
      wire,
      decoded,
      accountKeys: [...decoded.message.staticAccounts, ...loaded.writable, ...loaded.readonly],
      loadedAddresses: loaded,
      err: answer.meta.err,
      fee: BigInt(answer.meta.fee),
      logs: answer.meta.logMessages ?? [],
      computeUnitsConsumed: BigInt(answer.meta.computeUnitsConsumed ?? 0),
      preBalances: answer.meta.preBalances.map(BigInt),
      postBalances: answer.meta.postBalances.map(BigInt),
      preTokenBalances: answer.meta.preTokenBalances ?? [],
      postTokenBalances: answer.meta.postTokenBalances ?? [],
    };
  }

  async signWire(payer: SvmSigner, instructions: readonly Instruction[]): Promise<Uint8Array> {
    const { value } = await this.call<{ value: { blockhash: string; lastValidBlockHeight: number } }>('getLatestBlockhash', [{ commitment: COMMITMENT }]);
    return signSvmWire(payer, instructions, { blockhash: value.blockhash, lastValidBlockHeight: BigInt(value.lastValidBlockHeight) });
  }

  /** `sendTransaction`, then waits until the node has confirmed it and the listeners have heard of it. */
  async submit(wire: Uint8Array, options: { preflight: boolean }): Promise<SvmTransactionRecord> {
    const encoded = Buffer.from(wire).toString('base64');
    let signature: string;
    try {
      signature = await callSvmRpc<string>(this.options.rpcUrl, 'sendTransaction', [encoded, { encoding: 'base64', skipPreflight: !options.preflight, preflightCommitment: COMMITMENT }]);
    } catch (error) {
      if (!(error instanceof SvmRpcError)) throw error;
      const data = error.data as { err?: SvmTransactionErrorJson; logs?: string[] | null; unitsConsumed?: number } | undefined;
      const simulation = data && 'err' in data ? { err: data.err ?? null, logs: data.logs ?? [], unitsConsumed: BigInt(data.unitsConsumed ?? 0) } : undefined;
      throw new SvmTransactionRejectedError(error.message, error.code, simulation);
    }
    const deadline = performance.now() + CONFIRM_TIMEOUT_MS;
    for (;;) {
      const { value } = await this.call<{ value: Array<{ confirmationStatus?: string } | null> }>('getSignatureStatuses', [[signature]]);
      const status = value[0];
      if (status && (status.confirmationStatus === 'confirmed' || status.confirmationStatus === 'finalized')) break;
      if (performance.now() > deadline) throw new SvmTransactionRejectedError(`transaction ${signature} was not confirmed within ${CONFIRM_TIMEOUT_MS / 1000} s (dropped by the node)`, -32002);
      await pause(POLL_PAUSE_MS);
    }
    const record = await this.transaction(signature);
    if (!record) throw new ChainError(`the node confirmed ${signature} but getTransaction does not find it`);
    await this.sync();
    this.deliver(record);
    return record;
  }

  async simulate(wire: Uint8Array, options: { sigVerify: boolean; replaceRecentBlockhash: boolean }): Promise<SvmSimulation> {
    try {
      const { value } = await callSvmRpc<{ value: { err: SvmTransactionErrorJson | null; logs: string[] | null; unitsConsumed?: number } }>(this.options.rpcUrl, 'simulateTransaction', [
        Buffer.from(wire).toString('base64'),
        { encoding: 'base64', commitment: COMMITMENT, sigVerify: options.sigVerify, replaceRecentBlockhash: options.replaceRecentBlockhash },
      ]);
      return { err: value.err, logs: value.logs ?? [], unitsConsumed: BigInt(value.unitsConsumed ?? 0) };
    } catch (error) {
      if (error instanceof SvmRpcError) throw new SvmTransactionRejectedError(error.message, error.code);
      throw error;
    }
  }

  onTransaction(listener: (record: SvmTransactionRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Walks the blocks mined since the last look and tells the listeners of each transaction in them (one walk at a time). */
  sync(): Promise<void> {
    const next = this.syncing.catch(() => undefined).then(() => this.readNewBlocks());
    this.syncing = next;
    return next;
  }

  /** A validator makes its own slots: waits until `count` more have passed. */
  async mine(count: number): Promise<void> {
    const target = BigInt(await this.call<number>('getSlot', [{ commitment: COMMITMENT }])) + BigInt(count);
    const deadline = performance.now() + CONFIRM_TIMEOUT_MS;
    while (BigInt(await this.call<number>('getSlot', [{ commitment: COMMITMENT }])) < target) {
      if (performance.now() > deadline) throw new ChainError(`the validator at ${this.options.rpcUrl} made no new slot within ${CONFIRM_TIMEOUT_MS / 1000} s`);
      await pause(POLL_PAUSE_MS);
    }
  }

  private async readNewBlocks(): Promise<void> {
    if (this.closed || this.lastReadSlot === undefined) return;
    const current = BigInt(await this.call<number>('getSlot', [{ commitment: COMMITMENT }]));
    const until = current - this.lastReadSlot > BigInt(SLOTS_PER_SYNC) ? this.lastReadSlot + BigInt(SLOTS_PER_SYNC) : current;
    for (let slot = this.lastReadSlot + 1n; slot <= until && !this.closed; slot++) {
      const block = await this.readBlock(slot);
      if (block === 'not yet') return; // the next sync reads it
      for (const signature of block?.signatures ?? []) {
        if (this.heard.has(signature)) continue;
        const record = await this.transaction(signature);
        if (record) this.deliver(record);
      }
      this.lastReadSlot = slot;
      this.blocks.delete(slot - 1_000n); // keep the newest blocks only
    }
  }

  private deliver(record: SvmTransactionRecord): void {
    if (this.heard.has(record.signature)) return;
    this.heard.add(record.signature);
    for (const listener of this.listeners) listener(record);
  }

  /** Wakes a sync at each new slot the node announces (the interval poll covers a lost socket). */
  private subscribeToSlots(): void {
    const socket = new WebSocket(this.options.wsUrl);
    socket.on('open', () => socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'slotSubscribe', params: [] })));
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { method?: string };
      if (message.method === 'slotNotification') void this.sync().catch((error: Error) => this.options.onError(error));
    });
    socket.on('error', () => undefined); // the interval poll goes on
    this.socket = socket;
  }

  async isBlockhashValid(blockhash: string): Promise<boolean> {
    const { value } = await this.call<{ value: boolean }>('isBlockhashValid', [blockhash, { commitment: COMMITMENT }]);
    return value;
  }

  private call<T>(method: string, params: unknown[]): Promise<T> {
    return callSvmRpc<T>(this.options.rpcUrl, method, params);
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
