import { createPublicClient, http, type Hex, type PublicClient } from 'viem';
import { ConfigurationError } from '../../errors/IntentsimError';
import { shownUpstream } from '../../config/shownUpstream';

/** Where a forked EVM chain starts: its upstream, the block it is pinned at (the one asked for, else the upstream's tip at start) and that block's time. */
export interface EvmForkPoint {
  url: string;
  blockNumber: bigint;
  /** The block's hash: a restart on the same `--db` checks the upstream still has this block there. */
  hash: Hex;
  /** The block's timestamp, unix seconds: the forked chain's time starts there. */
  timestamp: bigint;
}

/** An upstream that cannot be forked as asked: unreachable, another chain, or short of the block (bad input: the CLI exits 2). */
export class ForkUpstreamError extends ConfigurationError {}

/** How long the upstream may take to answer each of the probe's calls. */
const PROBE_TIMEOUT_MS = 5000;


/** The innermost reason of a failed call: a socket's error code (ECONNREFUSED), else the deepest message. */
function reasonOf(error: unknown): string {
  let deepest = error instanceof Error ? error : new Error(String(error));
  for (let cause: unknown = deepest; cause instanceof Error; cause = cause.cause) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    deepest = cause;
  }
  return (deepest as { shortMessage?: string }).shortMessage ?? deepest.message.split('\n')[0]!;
}

/**
 * Asks a fork's upstream, before any process starts, that it answers (each call within 5 s),
 * serves `chainId`, and has `blockNumber` (default: its tip, which the fork is then pinned at).
 * Each failure is one line naming the chain, the upstream and what is wrong.
 */
export async function probeForkUpstream(params: { chainId: number; url: string; blockNumber?: number; timeoutMs?: number }): Promise<EvmForkPoint> {
  const timeoutMs = params.timeoutMs ?? PROBE_TIMEOUT_MS;
  const client: PublicClient = createPublicClient({ transport: http(params.url, { timeout: timeoutMs, retryCount: 0 }) });
  const where = `chain ${params.chainId}: the fork upstream ${shownUpstream(params.url)}`;
  const ask = async <T>(method: string, call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      const timedOut = (error as { name?: string }).name === 'TimeoutError';
      throw new ForkUpstreamError(`${where} did not answer ${method} ${timedOut ? `within ${timeoutMs / 1000} s` : `(${reasonOf(error)})`}`, { cause: error });
    }
  };
  const servedChainId = await ask('eth_chainId', () => client.getChainId());
  if (servedChainId !== params.chainId) throw new ForkUpstreamError(`${where} serves chain ${servedChainId}, not ${params.chainId}`);
  const tip = await ask('eth_blockNumber', () => client.getBlockNumber({ cacheTime: 0 }));
  const blockNumber = params.blockNumber === undefined ? tip : BigInt(params.blockNumber);
  if (blockNumber > tip) throw new ForkUpstreamError(`${where}: --fork-block ${blockNumber} is past its tip, block ${tip}`);
  const block = await ask('eth_getBlockByNumber', () => client.getBlock({ blockNumber }));
  return { url: params.url, blockNumber, hash: block.hash, timestamp: block.timestamp };
}
