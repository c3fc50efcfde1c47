import type { ScenarioStep } from '../scenarioSchema';
import { privateKeyOf, quoteNamed, ScenarioStepError, type ScenarioRunState } from '../scenarioRunState';

/** `doubleSpend`: the quote's user spends its last deposit's inputs again, through the chain's double-spend capability. */
export async function doubleSpendStep(state: ScenarioRunState, spec: Extract<ScenarioStep, { kind: 'doubleSpend' }>['spec']): Promise<string> {
  const quote = quoteNamed(state, spec.request);
  const chain = state.sim.control.chain(spec.chainId ?? quote.originChainId);
  if (!quote.lastDepositTxHash) throw new ScenarioStepError(`"${spec.request}" has no deposit to double-spend yet (a deposit step comes first)`);
  const options = spec.inReorgOfDepth === undefined ? {} : { inReorgOfDepth: spec.inReorgOfDepth };
  const conflict = await chain.doubleSpends.doubleSpend(privateKeyOf(state.sim, chain, quote.user), quote.lastDepositTxHash, options).catch((error: unknown) => {
    throw new ScenarioStepError(`the double spend of ${quote.lastDepositTxHash} was refused: ${error instanceof Error ? error.message : String(error)}`);
  });
  await chain.syncNow();
  const where = spec.inReorgOfDepth === undefined ? 'replacing it in the mempool' : `mined in a branch replacing the last ${spec.inReorgOfDepth} block(s)`;
  return `${spec.request}'s deposit ${quote.lastDepositTxHash} spent again by ${conflict} on ${chain.chainId}, ${where}`;
}
