import { chainMetadataFor } from '../../fixtures/chains';
import { fetchUpstreamChains, parseUpstreamRecord, ReplayInputError, type UpstreamChain } from './replay/fetchUpstreamRecord';
import { planReplayForks } from './replay/planReplayForks';
import { localChain, RecordNotReplayableError } from './recordStandIns';
import { scenarioFromRecord, type RecordForks } from './scenarioFromRecord';

/** The one record of a `GET /requests/v3` answer, or the record itself. */
function recordOf(input: unknown): unknown {
  return typeof input === 'object' && input !== null && Array.isArray((input as { requests?: unknown }).requests) ? (input as { requests: unknown[] }).requests[0] : input;
}

/** Chains known only from `--fork CHAIN=URL` (no `--from`): each one's kind is the local chain's of that id; no solver is known. */
function chainsFromForks(forks: Readonly<Record<number, string>>): UpstreamChain[] {
  return Object.keys(forks).map((id) => ({ id: Number(id), vmType: chainMetadataFor(Number(id)).vm, solverAddresses: [] }));
}

/**
 * `intentsim scenario from-record FILE --fork` (docs/forking.md "A replay as a scenario file"):
 * the record's chains forked where the request happened, as `intentsim replay` forks them (the
 * origin at the block before the deposit, the destination at the last block at or before its
 * time: planReplayForks), their upstreams from the deployment's `GET /chains` (`from`) unless
 * `forks` names them. Returns the scenario's YAML, with its `fork:` section; bad input throws
 * ReplayInputError (or a fork's ConfigurationError): the CLI exits 2.
 */
export async function forkedScenarioFromRecord(params: { input: unknown; from?: string; forks?: Readonly<Record<number, string>> }): Promise<string> {
  const raw = recordOf(params.input);
  const record = parseUpstreamRecord(raw, String((raw as { id?: unknown } | undefined)?.id ?? 'the file'));
  const forks = params.forks ?? {};
  const recordChains = [...new Set([record.data.metadata.currencyIn.currency.chainId, record.data.metadata.currencyOut.currency.chainId])];
  // each chain runs locally (refused before any upstream is asked)
  for (const id of recordChains) localChain(id);
  if (params.from === undefined) {
    const unnamed = recordChains.filter((id) => forks[id] === undefined);
    if (unnamed.length > 0) throw new ReplayInputError(`--fork: no upstream for chain ${unnamed.join(', ')} of request ${record.id}; give --from <the deployment's URL> (its GET /chains) or --fork ${unnamed[0]}=URL`);
  }
  const chains = params.from === undefined ? chainsFromForks(forks) : await fetchUpstreamChains(params.from);
  const plan = await planReplayForks({ record, chains, forks });
  const planned = plan.origin.chainId === plan.destination.chainId ? [plan.origin] : [plan.origin, plan.destination];
  const recordForks: RecordForks = {
    chains: Object.fromEntries(planned.map((fork) => [fork.chainId, { url: fork.url, block: fork.point.pinned ? fork.point.block : null }])),
    destinationSolver: plan.destination.upstreamSolver,
    // the origin's kind gives back what the deposit spent where its fork reads the upstream after it (as replay does before its quote)
    ...(plan.origin.forking.restoreDepositFunds ? { restoreDepositFunds: { depositTxHash: record.data.inTxs[0]!.txHash } } : {}),
  };
  try {
    return scenarioFromRecord(raw, { forks: recordForks });
  } catch (error) {
    // a record this kind cannot replay on a fork is bad input, as for replay: one line, exit code 2
    if (error instanceof RecordNotReplayableError) throw new ReplayInputError(error.message, { cause: error });
    throw error;
  }
}
