import { ConfigurationError } from '../../errors/IntentsimError';
import { shownUpstream } from '../../config/shownUpstream';
import type { ForkUpstream } from '../../config/simulatorConfig';
import type { ChainJournalStore } from '../../store/ChainJournalStore';
import { ForkUpstreamError, probeForkUpstream, type EvmForkPoint } from './probeForkUpstream';

/**
 * Where a forked EVM chain starts when it has a `--db` (docs/forking.md, "With --db"): its first
 * start pins the block it forks (the one `--fork-block` names, else the upstream's tip then) in the
 * chain journal, and every restart forks that same block again, so the blocks journaled above it
 * are mined again on the same state. Before any process starts, a restart checks that the
 * upstream still has that block (same number, same hash: the same chain, not reorged past it),
 * and refuses in one line (exit 2) a database that does not match the flags: a journal of the
 * chain unforked, a fork without `--fork`, another `--fork-block`.
 * Without a journal (`journal` undefined: no `--db`) it is the plain probe.
 */
export async function journaledForkPoint(params: { chainId: number; upstream: ForkUpstream | undefined; journal: ChainJournalStore | undefined }): Promise<EvmForkPoint | undefined> {
  const { chainId, upstream, journal } = params;
  const base = journal?.forkBase(chainId);
  if (!upstream) {
    if (base) throw new ConfigurationError(`chain ${chainId}: this --db holds chain ${chainId} as a fork of its upstream's block ${base.number}; start it with --fork ${chainId}=URL again (an upstream that still serves that block), or use another --db`);
    return undefined;
  }
  if (!base) {
    if (journal && journal.latestNumber(chainId) >= 0) throw new ConfigurationError(`chain ${chainId}: this --db holds chain ${chainId} unforked (its own genesis); a fork needs another --db`);
    return probeForkUpstream({ chainId, ...upstream });
  }
  if (upstream.blockNumber !== undefined && upstream.blockNumber !== base.number) {
    throw new ConfigurationError(`chain ${chainId}: --fork-block ${chainId}=${upstream.blockNumber}, but this --db forked chain ${chainId} at block ${base.number} on its first start; drop --fork-block (or give ${base.number}), or use another --db`);
  }
  const fork = await probeForkUpstream({ chainId, url: upstream.url, blockNumber: base.number });
  if (fork.hash !== base.hash) {
    throw new ForkUpstreamError(`chain ${chainId}: the fork upstream ${shownUpstream(upstream.url)} has ${fork.hash} at block ${base.number}, not ${base.hash}, the block this --db forked (another chain, or that block was reorged); use another --db`);
  }
  return fork;
}
