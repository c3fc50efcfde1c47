import { ConfigurationError } from '../../errors/IntentsimError';
import { SvmUpstreamError, SvmUpstreamRpc } from '../../nodes/svm';
import { shownUpstream } from '../../config/shownUpstream';

/** A forked Solana chain's upstream, once it answered: its URL, the origin messages show, and its slot when the chain started. */
export interface SvmForkPoint {
  url: string;
  /** The URL's origin only (a provider's URL often carries its API key). */
  origin: string;
  /** The upstream's slot at the first start (undefined on a restart from the journal, which asks nothing): accounts are read later, as they are then (not pinned to it). */
  slot?: bigint;
}

/** An upstream a Solana chain cannot fork: it does not answer, or not as a Solana RPC (bad input: the CLI exits 2). */
export class SvmForkUpstreamError extends ConfigurationError {}

/** How long the upstream may take to answer the probe. */
const PROBE_TIMEOUT_MS = 5000;

/**
 * Asks a fork's upstream, before the chain's first start, for its slot (within 5 s): one line
 * naming the chain, the upstream and what is wrong when it does not answer or is no Solana RPC. A
 * `restart` from the journal asks nothing (what it read is journaled; only new reads need it).
 */
export async function probeSvmForkUpstream(params: { chainId: number; url: string; timeoutMs?: number; restart?: boolean }): Promise<SvmForkPoint> {
  const timeoutMs = params.timeoutMs ?? PROBE_TIMEOUT_MS;
  const origin = shownUpstream(params.url);
  if (params.restart) return { url: params.url, origin };
  try {
    const slot = await new SvmUpstreamRpc(params.url, timeoutMs).slot();
    return { url: params.url, origin, slot };
  } catch (error) {
    const reason = error instanceof SvmUpstreamError ? error.reason : error instanceof Error ? error.message : String(error);
    throw new SvmForkUpstreamError(`chain ${params.chainId}: the fork upstream ${origin} did not answer getSlot (${reason})`, { cause: error });
  }
}
