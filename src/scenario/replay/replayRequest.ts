import { compareReplay, type ReplayReport } from './compareReplay';
import { fetchUpstreamRecord } from './fetchUpstreamRecord';
import { planReplayForks } from './planReplayForks';
import { runReplay, type ReplayStartOptions } from './runReplay';

export { ReplayInputError } from './fetchUpstreamRecord';
export { formatReplayReport, type ReplayReport } from './compareReplay';

/**
 * `intentsim replay <requestId> --from <baseUrl>` (docs/forking.md "Replaying a request"): reads
 * the record and the deployment's chains, forks each of the record's chains where the request
 * happened, makes the deposit again as its user, lets this simulator's solver act, and compares.
 * Bad input throws ReplayInputError (or a fork's ConfigurationError): the CLI exits 2.
 */
export async function replayRequest(params: { requestId: string; from: string; apiKey?: string; forks?: Readonly<Record<number, string>>; log?: (line: string) => void; startOptions?: ReplayStartOptions }): Promise<ReplayReport> {
  const { record, chains } = await fetchUpstreamRecord(params);
  const plan = await planReplayForks({ record, chains, forks: params.forks ?? {} });
  const { replayed, notes } = await runReplay({ record, plan, ...(params.log ? { log: params.log } : {}), ...(params.startOptions ? { startOptions: params.startOptions } : {}) });
  return compareReplay({ original: record, replayed, plan, notes });
}
