import { requireCapability } from '../../chains/capabilities/requireCapability';
import type { ScenarioStep } from '../scenarioSchema';
import { privateKeyOf, quoteNamed, ScenarioStepError, type ScenarioRunState } from '../scenarioRunState';

type DepositSpec = Extract<ScenarioStep, { kind: 'deposit' }>['spec'];

/**
 * `deposit` with `expectError`: the quote's own deposit transaction(s) sent as the quote's user,
 * and the chain must refuse one (its message containing `expectError`); nothing reaches the
 * depository, so the request stays `waiting`.
 */
export async function refusedDepositStep(state: ScenarioRunState, spec: DepositSpec & { expectError: string }): Promise<string> {
  if (spec.amount !== 'quoted' || spec.chainId !== undefined || spec.currency !== undefined || spec.requestId !== undefined || spec.as !== undefined) {
    throw new ScenarioStepError('a deposit with expectError sends the quote’s own deposit: leave out amount, chainId, currency, requestId and as');
  }
  const quote = quoteNamed(state, spec.request);
  const chain = state.sim.control.chain(quote.originChainId);
  const privateKey = privateKeyOf(state.sim, chain, spec.from ?? quote.user);
  const wallet = requireCapability(chain, 'userWallet', 'a deposit');
  const sent: string[] = [];
  for (const step of quote.steps) {
    for (const item of step.items) {
      let hash: string;
      try {
        const transaction = await wallet.sendUserTransaction(privateKey, item.data, { wait: spec.wait });
        if (transaction.status === 'failure') throw new ScenarioStepError(`the ${step.id} transaction ${transaction.txHash} reverted on chain; expected the chain to refuse it with ${spec.expectError}`);
        hash = transaction.txHash;
      } catch (error) {
        if (error instanceof ScenarioStepError) throw error;
        const message = error instanceof Error ? error.message : String(error);
        if (!message.includes(spec.expectError)) throw new ScenarioStepError(`expected the chain to refuse the deposit with ${spec.expectError}; it refused: ${message}`);
        return `${spec.request}: refused as expected${sent.length > 0 ? ` after ${sent.join(', ')}` : ''}: ${message}`;
      }
      sent.push(`${step.id} ${hash}`);
    }
  }
  throw new ScenarioStepError(`expected the chain to refuse the deposit with ${spec.expectError}; it took it: ${sent.join(', ') || 'the quote has no transaction to send'}`);
}
