import type { ScenarioStep } from '../scenarioSchema';
import { privateKeyOf, ScenarioStepError, type ScenarioRunState } from '../scenarioRunState';

type ResendSpec = Extract<ScenarioStep, { kind: 'resendExchangeTransfer' }>['spec'];

/** The exchange API's transaction (`GET /api/v1/tx`): who sent it, with which nonce, and the readable transfer. */
interface ExchangeTransaction {
  account_index: number;
  nonce: number;
  transfer: { to_account_index: number; asset_index: number; from_route_type: number; to_route_type: number; amount: string; usdc_fee: string; memo: string };
}

/**
 * `resendExchangeTransfer`: a client that sends the same signed transfer twice (a retry after a
 * lost answer). The named deposit's transfer is read back from the exchange's API and POSTed to
 * `/api/v1/transfer` again as it was — the same account, key, parameters and nonce; the exchange
 * must refuse it with `expectError` (its nonce error, `INVALID_NONCE`).
 */
export async function resendExchangeTransferStep(state: ScenarioRunState, spec: ResendSpec): Promise<string> {
  const deposit = state.deposits.get(spec.deposit);
  if (!deposit) throw new ScenarioStepError(`no deposit named "${spec.deposit}" (name one with deposit: { …, as: NAME })`);
  const chain = state.sim.control.chain(deposit.quote.originChainId);
  // the exchange is the chain with exchange accounts
  if (!chain.cheats?.exchangeAccounts) throw new ScenarioStepError(`deposit "${spec.deposit}" was made on chain ${chain.chainId}, not on the exchange`);
  const api = chain.describe().httpRpcUrl;
  const read = await fetch(`${api}/api/v1/tx?by=hash&value=${deposit.txHash}`);
  if (!read.ok) throw new ScenarioStepError(`the exchange has no transaction ${deposit.txHash}: ${read.status}`);
  const tx = (await read.json()) as ExchangeTransaction;
  const t = tx.transfer;
  const action = {
    type: 'transfer',
    parameters: { toAccountIndex: t.to_account_index, assetIndex: t.asset_index, fromRouteType: t.from_route_type, toRouteType: t.to_route_type, amount: Number(t.amount), usdcFee: Number(t.usdc_fee), memo: t.memo },
  };
  const response = await fetch(`${api}/api/v1/transfer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': privateKeyOf(state.sim, chain, String(tx.account_index)) },
    body: JSON.stringify({ accountIndex: tx.account_index, nonce: tx.nonce, action }),
  });
  const answer = (await response.json()) as { tx_hash?: string; errorCode?: string; message?: string };
  if (response.ok) throw new ScenarioStepError(`the exchange executed the same transfer again: tx ${answer.tx_hash}`);
  if (answer.errorCode !== spec.expectError) throw new ScenarioStepError(`expected the exchange to refuse it with ${spec.expectError}; it answered ${response.status} ${answer.errorCode}: ${answer.message}`);
  return `${spec.deposit} (tx ${deposit.txHash}, account ${tx.account_index}, nonce ${tx.nonce}) sent again: refused ${response.status} ${answer.errorCode}: ${answer.message}`;
}
