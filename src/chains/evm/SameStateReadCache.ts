/** Reads whose answer depends on the chain's state alone (at `latest`), so equal calls on an unchanged state answer alike. */
const STATE_READS = new Set(['eth_getBalance', 'eth_call', 'eth_estimateGas']);

/** Methods that never change a node's state; any other method (a send, a cheat call) may. */
const NEVER_WRITES = /^(eth_(?!send)|net_|web3_|anvil_(nodeInfo|metadata)$|txpool_)/;

/** Entries kept at most; the map is emptied past it (a state change empties it anyway). */
const MAX_ENTRIES = 10_000;

/**
 * Quote-time reads of one chain (the user's balance, the fill's simulation), shared while the
 * chain's state cannot have changed: an equal read on the same state answers from here instead
 * of the node. The state counts as changed on every block the watcher indexes (anyone's
 * transaction, a reorg) and on every call through the simulator's own clients that may write
 * (a send, a cheat call such as a balance, code or time change); a read started before a change
 * is never kept after it. A cheat call made straight to the node by someone else is seen at the
 * next block.
 */
export class SameStateReadCache {
  private epoch = 0;
  private readonly answers = new Map<string, Promise<unknown>>();

  /** The state may have changed: forget every kept answer. */
  stateChanged(): void {
    this.epoch += 1;
    this.answers.clear();
  }

  /** Whether a call of `method` may change the node's state. */
  static mayWrite(method: string): boolean {
    return !NEVER_WRITES.test(method);
  }

  /** The answer of an equal state read on this state, or `load()`'s, kept while the state stands. */
  read(method: string, params: unknown, load: () => Promise<unknown>): Promise<unknown> {
    if (!STATE_READS.has(method) || !atLatest(params)) return load();
    const key = `${method}:${JSON.stringify(params ?? [])}`;
    const kept = this.answers.get(key);
    if (kept) return kept;
    const startedAt = this.epoch;
    const answer = load();
    if (this.answers.size >= MAX_ENTRIES) this.answers.clear();
    this.answers.set(key, answer);
    answer.then(
      () => {
        // the state changed while it was read: never keep it for the new state
        if (this.epoch !== startedAt && this.answers.get(key) === answer) this.answers.delete(key);
      },
      () => {
        if (this.answers.get(key) === answer) this.answers.delete(key);
      },
    );
    return answer;
  }
}

/** The read is at the latest (or pending) state: no block number or hash pinned. */
function atLatest(params: unknown): boolean {
  if (!Array.isArray(params)) return true;
  // [address, block] / [call, block, overrides] / [tx, block]
  const block = params[1] as unknown;
  return block === undefined || block === 'latest' || block === 'pending';
}
