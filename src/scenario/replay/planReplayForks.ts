import { replayForkingFor, type ReplayForking, type ReplayForkPoint } from '../../chains/replayForkings';
import { VM_TYPES, type VmType } from '../../domain/chain/chainDescription';
import { ReplayInputError, type UpstreamChain, type UpstreamRecord } from './fetchUpstreamRecord';

/** One chain of the replay: its kind, its upstream, where it is forked, and the upstream's solver there. */
export interface PlannedFork {
  chainId: number;
  vm: VmType;
  forking: ReplayForking;
  url: string;
  point: ReplayForkPoint;
  upstreamSolver: string | undefined;
}

export interface ReplayPlan {
  origin: PlannedFork;
  destination: PlannedFork;
  /** The deposit as the record has it (the first of `inTxs`). */
  deposit: { block: number; timestamp: number };
}

/** A chain of the record as the upstream serves it, with the URL it is forked from (`--fork` wins over `httpRpcUrl`). */
function upstreamChainOf(chainId: number, chains: readonly UpstreamChain[], forks: Readonly<Record<number, string>>, role: string) {
  const chain = chains.find((candidate) => candidate.id === chainId);
  if (!chain) throw new ReplayInputError(`the record's ${role} chain ${chainId} is not served by the upstream (not in its GET /chains)`);
  const vm = (VM_TYPES as readonly string[]).includes(chain.vmType ?? 'evm') ? ((chain.vmType ?? 'evm') as VmType) : undefined;
  if (vm === undefined) throw new ReplayInputError(`the record's ${role} chain ${chainId} is a ${chain.vmType} chain; replay forks ${VM_TYPES.join(', ')} chains`);
  const forking = replayForkingFor(vm);
  const url = forks[chainId] ?? chain.httpRpcUrl;
  if (!url) throw new ReplayInputError(`the upstream names no httpRpcUrl for chain ${chainId}: name one with --fork ${chainId}=URL`);
  return { chainId, vm, forking, url, upstreamSolver: chain.solverAddresses[0] };
}

/**
 * Where each of the record's chains is forked: the origin at the block before the deposit, the
 * destination at the last block whose time is at or before the deposit's (a request within one
 * chain has one fork, the origin's). Each kind finds its point (ReplayForking.forkPoint).
 */
export async function planReplayForks(params: { record: UpstreamRecord; chains: readonly UpstreamChain[]; forks: Readonly<Record<number, string>> }): Promise<ReplayPlan> {
  const { record } = params;
  const originId = record.data.metadata.currencyIn.currency.chainId;
  const destinationId = record.data.metadata.currencyOut.currency.chainId;
  const depositTx = record.data.inTxs[0];
  if (!depositTx || depositTx.block == null || depositTx.timestamp == null) throw new ReplayInputError(`request ${record.id} (${record.status}) has no deposit with a block and a time in its inTxs: nothing to replay`);
  const deposit = { block: depositTx.block, timestamp: depositTx.timestamp };
  for (const id of Object.keys(params.forks).map(Number)) {
    if (id !== originId && id !== destinationId) throw new ReplayInputError(`--fork ${id}=…: chain ${id} is not a chain of request ${record.id} (its chains: ${[...new Set([originId, destinationId])].join(', ')})`);
  }
  const origin = upstreamChainOf(originId, params.chains, params.forks, 'origin');
  const destination = upstreamChainOf(destinationId, params.chains, params.forks, 'destination');
  const originPoint = await origin.forking.forkPoint({ chainId: originId, url: origin.url, role: 'origin', depositBlock: deposit.block });
  const destinationPoint =
    destinationId === originId ? originPoint : await destination.forking.forkPoint({ chainId: destinationId, url: destination.url, role: 'destination', atOrBeforeSeconds: deposit.timestamp });
  return { origin: { ...origin, point: originPoint }, destination: { ...destination, point: destinationPoint }, deposit };
}
