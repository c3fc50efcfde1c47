import { replayForkingFor, type ReplayForking } from '../../chains/replayForkings';
import { VM_TYPES, type VmType } from '../../domain/chain/chainDescription';
import type { RestoreDepositFundsStepSchema, SolverAsUpstreamStepSchema } from '../scenarioSchema';
import { resolveAddress, resolveCurrency, ScenarioStepError, type ScenarioRunState } from '../scenarioRunState';
import type { z } from 'zod';

/** The replay forking (impersonation, the solver's stand-in) of a chain's kind; refused in one line where the kind has none yet. */
function forkingOf(state: ScenarioRunState, chainId: number, what: string): { forking: ReplayForking; rpcUrl: string } {
  const chain = state.sim.chains.find((candidate) => candidate.id === chainId);
  if (!chain) throw new ScenarioStepError(`chain ${chainId} is not one of this simulator's chains`);
  const vm = (VM_TYPES as readonly string[]).includes(chain.vmType) ? (chain.vmType as VmType) : undefined;
  const forking = vm === undefined ? undefined : replayForkingFor(vm);
  if (!forking) throw new ScenarioStepError(`${what} on chain ${chainId}: a ${chain.vmType} chain cannot do it`);
  return { forking, rpcUrl: chain.rpcUrl };
}

/**
 * Sends a deposit's items as `from` without its key (impersonated): the record's user on a forked
 * chain, with what it held at the fork block (its native balance topped up when short).
 */
export async function sendImpersonated(
  state: ScenarioRunState,
  params: { chainId: number; from: string; currency: { address: string; isNative: boolean }; amount: bigint; items: ReadonlyArray<Record<string, unknown>> },
): Promise<{ txHashes: string[]; notes: string[] }> {
  const { forking, rpcUrl } = forkingOf(state, params.chainId, 'an impersonated deposit');
  try {
    return await forking.depositAs({
      chainId: params.chainId,
      localChain: state.sim.control.chain(params.chainId),
      localRpcUrl: rpcUrl,
      from: params.from,
      currency: params.currency.address,
      native: params.currency.isNative,
      amount: params.amount,
      items: params.items,
    });
  } catch (error) {
    throw new ScenarioStepError(`the deposit sent as ${params.from}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/** `solverAsUpstream`: the local solver given the upstream solver's balance of the currency at the fork block (the scenario's `fork:`), or now where the fork names none. */
export async function solverAsUpstreamStep(state: ScenarioRunState, spec: z.output<typeof SolverAsUpstreamStepSchema>): Promise<string> {
  const fork = state.fork?.[String(spec.chainId)];
  if (!fork) throw new ScenarioStepError(`chain ${spec.chainId} is not forked (name it in fork:)`);
  const { forking, rpcUrl } = forkingOf(state, spec.chainId, 'solverAsUpstream');
  const chain = state.sim.control.chain(spec.chainId);
  const currency = resolveCurrency(chain, spec.currency);
  const notes = await forking.standInForSolver({
    chainId: spec.chainId,
    localChain: chain,
    localRpcUrl: rpcUrl,
    upstreamUrl: fork.url,
    block: fork.block ?? null,
    upstreamSolver: resolveAddress(state.sim, chain, spec.upstreamSolver),
    localSolver: chain.describe().solverAddress,
    currency: currency.address,
    native: currency.isNative,
  });
  return notes.join('; ');
}

/**
 * `restoreDepositFunds`: the record's user given back what the record's deposit spent, by the
 * chain kind's replay forking (`restoreDepositFunds`, as `intentsim replay` calls it before its
 * quote); refused in one line on a kind whose fork has nothing to give back (EVM: pinned before
 * the deposit; Solana and Lighter: the deposit's amount is topped up when it is sent).
 */
export async function restoreDepositFundsStep(state: ScenarioRunState, spec: z.output<typeof RestoreDepositFundsStepSchema>): Promise<string> {
  const fork = state.fork?.[String(spec.chainId)];
  if (!fork) throw new ScenarioStepError(`chain ${spec.chainId} is not forked (name it in fork:)`);
  const { forking } = forkingOf(state, spec.chainId, 'restoreDepositFunds');
  if (!forking.restoreDepositFunds) {
    throw new ScenarioStepError(`restoreDepositFunds on chain ${spec.chainId}: a ${state.sim.chains.find((chain) => chain.id === spec.chainId)!.vmType} chain's fork has nothing to give back (the deposit's funds are there, or topped up when it is sent)`);
  }
  const notes = await forking.restoreDepositFunds({
    chainId: spec.chainId,
    localChain: state.sim.control.chain(spec.chainId),
    upstreamUrl: fork.url,
    user: spec.user,
    depositTxHash: spec.depositTxHash,
  });
  return notes.length > 0 ? notes.join('; ') : `chain ${spec.chainId}: nothing the deposit ${spec.depositTxHash} spent was missing`;
}
