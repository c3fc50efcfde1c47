import { keccak256, type Hex } from 'viem';
import { evmCallKind, type JsonRpcCall } from './evmCallKinds';

/** One call the front journaled: what was sent, and the chain's head block when it was sent. */
export interface JournaledEvmCall extends JsonRpcCall {
  head: number;
}

/** How a chain rebuilt from its block journal gets back what users sent it (`planEvmCallReplay`). */
export interface EvmCallReplayPlan {
  /** State cheats made again just before journaled block N is mined (they came after block N − 1). */
  beforeBlock: Map<number, JsonRpcCall[]>;
  /** Automine as the journaled calls left it when the last journaled block was mined (default on). */
  automineAtTail: boolean;
  /** What is sent again after the last journaled block, in order: the transactions no journaled block holds, then every call made at or after that head. */
  tail: JsonRpcCall[];
  /** Interval mining (seconds) set by a call before the tail, applied once everything is back. */
  intervalMining?: number;
}

function firstParam(call: JsonRpcCall): unknown {
  return Array.isArray(call.params) ? call.params[0] : undefined;
}

/** The hash of a raw transaction call (its signed bytes hashed), or undefined for any other call. */
function rawTransactionHash(call: JsonRpcCall): Hex | undefined {
  const raw = firstParam(call);
  return call.method.startsWith('eth_sendRawTransaction') && typeof raw === 'string' && raw.startsWith('0x') ? keccak256(raw as Hex) : undefined;
}

/**
 * Orders the journaled calls around the journaled blocks (`lastBlock`: the highest one). A call made
 * before `lastBlock` is already in the blocks when it mined or moved the chain; a state cheat is made
 * again just before the block that followed it; a raw transaction no journaled block holds (it was
 * in the pool) is sent again after the last block. Every call made at or after `lastBlock` (the
 * blocks a kill took before the watcher indexed them, the pool) is made again, in order.
 */
export function planEvmCallReplay(calls: readonly JournaledEvmCall[], lastBlock: number, journaledTransactions: ReadonlySet<string>): EvmCallReplayPlan {
  const beforeBlock = new Map<number, JsonRpcCall[]>();
  const pooled: JsonRpcCall[] = [];
  const after: JsonRpcCall[] = [];
  let automineAtTail = true;
  let intervalMining: number | undefined;
  for (const { head, method, params } of calls) {
    const call: JsonRpcCall = params === undefined ? { method } : { method, params };
    const hash = rawTransactionHash(call);
    if (hash !== undefined && journaledTransactions.has(hash)) continue;
    if (head >= lastBlock) {
      after.push(call);
      continue;
    }
    const kind = evmCallKind(method);
    if (kind === 'state') beforeBlock.set(head + 1, [...(beforeBlock.get(head + 1) ?? []), call]);
    else if (kind === 'transaction' && hash !== undefined) pooled.push(call);
    else if (kind === 'miningMode' && method.endsWith('setAutomine')) automineAtTail = firstParam(call) === true;
    else if (kind === 'miningMode') intervalMining = Number(firstParam(call) ?? 0);
  }
  return { beforeBlock, automineAtTail, tail: [...pooled, ...after], ...(intervalMining !== undefined ? { intervalMining } : {}) };
}
