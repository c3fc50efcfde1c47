import { ruleMatches, type SolverRule } from '../domain/fill/solverRules';
import type { RequestRecord } from '../domain/request/requestRecord';
import { chainsHoldingTransactions } from './chainsHoldingTransactions';
import type { ScenarioRunState } from './scenarioRunState';

/**
 * What a scenario's requests wait on now, one line each, for the message of a step that did not
 * end within its bound or an `expect` whose status is not yet the one expected: each named
 * request's status; the solver's work on it (a transaction it waits for, and whether that waits in
 * its chain's pool, mined only by a later step); the deposit a step sent still in a pool; a solver
 * rule that holds or delays it; webhook deliveries waiting for a retry; and the chains whose
 * transactions wait for a `mine` step. Deterministic (names, hashes, virtual times): it may be
 * written into a timeline.
 */
export async function describeWaits(state: Pick<ScenarioRunState, 'sim' | 'quotes' | 'automineOff'>, only?: string): Promise<string[]> {
  const { sim } = state;
  const control = sim.control;
  const lines: string[] = [];
  const work = new Map(control.solver.work().map((entry) => [entry.requestId, entry.awaiting]));
  const isPending = async (chainId: number, txHash: string) => {
    try {
      return await control.chain(chainId).isPending(txHash);
    } catch {
      return false;
    }
  };
  const now = control.clock.now();
  const rules = control.solver.listRules();
  const pendingDeliveries = control.webhooks.store.pending();
  for (const quote of state.quotes.values()) {
    if (only !== undefined && quote.alias !== only) continue;
    const record = control.requests.get(quote.requestId);
    const parts: string[] = [];
    if (work.has(quote.requestId)) {
      const awaiting = work.get(quote.requestId);
      if (!awaiting) parts.push('the solver is working on it');
      else if (await isPending(awaiting.chainId, awaiting.txHash)) parts.push(`the solver waits for ${describeSolverTx(record, awaiting)} held in chain ${awaiting.chainId}'s mempool (a later step must mine it)`);
      else parts.push(`the solver waits for the receipt of ${describeSolverTx(record, awaiting)} on chain ${awaiting.chainId}`);
    } else {
      for (const sent of record?.submittedTxs ?? []) {
        if (await isPending(sent.chainId, sent.txHash)) parts.push(`its ${sent.type} ${sent.txHash} waits in chain ${sent.chainId}'s mempool (a later step must mine it)`);
      }
    }
    if (quote.lastDepositTxHash && (await isPending(quote.originChainId, quote.lastDepositTxHash))) {
      parts.push(`its deposit ${quote.lastDepositTxHash} waits in chain ${quote.originChainId}'s mempool (a later step must mine it)`);
    }
    const rule = record?.status === 'pending' ? holdingRule(rules, record) : undefined;
    if (rule) parts.push(`held by solver rule ${rule.id} ${JSON.stringify(rule.action)}${rule.action.kind === 'delay' ? ' (an advanceClock step lets it go)' : ''}`);
    for (const delivery of pendingDeliveries.filter((entry) => entry.requestId === quote.requestId)) {
      const due = delivery.nextAttemptAt === null ? 'due now' : `due in ${Math.max(0, (delivery.nextAttemptAt - now) / 1000)} s of virtual time (an advanceClock step sends it)`;
      parts.push(`webhook ${delivery.requestStatus} after ${delivery.attempts} attempt(s): retry ${due}`);
    }
    // asked about one request (a failing expect, which already shows its status): only what it waits on
    if (only === undefined || parts.length > 0) lines.push(`${quote.alias} is ${record?.status ?? 'unknown'}${parts.length > 0 ? `: ${parts.join('; ')}` : ''}`);
  }
  if (only === undefined) {
    for (const entry of control.solver.work()) {
      if ([...state.quotes.values()].some((quote) => quote.requestId === entry.requestId)) continue;
      lines.push(`request ${entry.requestId} (unnamed) is ${control.requests.get(entry.requestId)?.status ?? 'unknown'}: the solver ${entry.awaiting ? `waits for ${entry.awaiting.txHash} on chain ${entry.awaiting.chainId}` : 'is working on it'}`);
    }
  }
  const held = chainsHoldingTransactions(sim, state.automineOff);
  if (held.length > 0) lines.push(`chain(s) ${held.join(', ')} mine only on a mine step (automine off)`);
  return lines;
}

function describeSolverTx(record: RequestRecord | undefined, { txHash, kind }: { txHash: string; kind?: string }): string {
  const same = (entry: { txHash: string }) => entry.txHash.toLowerCase() === txHash.toLowerCase();
  const type = kind ?? record?.submittedTxs.find(same)?.type ?? record?.outTxs.find(same)?.type;
  return `its ${type ?? 'transaction'} ${txHash}`;
}

/** The newest rule matching the record, when it does not simply fill (the solver decides by the newest). */
function holdingRule(rules: SolverRule[], record: RequestRecord): SolverRule | undefined {
  const subject = { id: record.id, originChainId: record.quote.originChainId, destinationChainId: record.quote.destinationChainId, requestType: record.quote.requestType };
  const rule = [...rules].reverse().find((candidate) => ruleMatches(candidate.match, subject));
  return rule && rule.action.kind !== 'fill' ? rule : undefined;
}
