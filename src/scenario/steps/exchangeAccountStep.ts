import type { ExchangeAccountChange } from '../../chains/capabilities/ExchangeAccountControls';
import { requireCheatCapability } from '../../chains/capabilities/requireCapability';
import type { ScenarioStep } from '../scenarioSchema';
import { resolveAddress, ScenarioStepError, type ScenarioRunState } from '../scenarioRunState';

type ExchangeAccountSpec = Extract<ScenarioStep, { kind: 'exchangeAccount' }>['spec'];

/** `exchangeAccount`: pauses an exchange account, revokes its API key or sets its collateral (or undoes it), as `POST /admin/chains/:chainId/accounts/:account` does. */
export function exchangeAccountStep(state: ScenarioRunState, spec: ExchangeAccountSpec): string {
  const chain = state.sim.control.chain(spec.chainId);
  const account = resolveAddress(state.sim, chain, spec.account);
  const change: ExchangeAccountChange = {
    ...(spec.paused === undefined ? {} : { paused: spec.paused }),
    ...(spec.apiKeyRevoked === undefined ? {} : { apiKeyRevoked: spec.apiKeyRevoked }),
    ...(spec.collateral === undefined ? {} : { collateral: BigInt(spec.collateral) }),
  };
  try {
    requireCheatCapability(chain, 'exchangeAccounts', `a change to account ${account}`).setAccount(account, change);
  } catch (error) {
    throw new ScenarioStepError(`account ${account} on ${spec.chainId}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const done = [
    ...(change.paused === undefined ? [] : [change.paused ? 'paused' : 'unpaused']),
    ...(change.apiKeyRevoked === undefined ? [] : [change.apiKeyRevoked ? 'API key revoked' : 'API key restored']),
    ...(change.collateral === undefined ? [] : [`collateral set to ${change.collateral}`]),
  ];
  return `account ${account} on ${spec.chainId}: ${done.join(', ')}`;
}
