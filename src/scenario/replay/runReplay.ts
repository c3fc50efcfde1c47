import { chainKindFacts } from '../../chains/chainKinds';
import { startSimulator, type RunningSimulator, type StartSimulatorOptions } from '../../simulator';
import { StepBoundReached, withinWallTime } from '../stepBounds';
import { ReplayInputError, type UpstreamRecord } from './fetchUpstreamRecord';
import type { ReplayPlan } from './planReplayForks';

/** Real time the replayed request may take to settle (its refund included) before the replay gives up, naming what is pending. */
const SETTLE_TIMEOUT_SECONDS = 90;
const SETTLED = new Set(['success', 'failure', 'refund']);

/** Where the replaying simulator finds its binaries (the CLI passes what the environment names). */
export type ReplayStartOptions = Pick<StartSimulatorOptions, 'anvilPath' | 'anvilSearchPath'>;

/** A record of the replaying simulator (SPEC §2.3), as `GET /requests/v3` answers it. */
export type ReplayedRecord = UpstreamRecord;

interface QuoteAnswer {
  /** Each item's `data` is in its chain kind's shape (SPEC §2.2): a call, Solana instructions, a PSBT, an exchange action. */
  steps: Array<{ id: string; requestId?: string; items: Array<{ data: Record<string, unknown> }> }>;
}

async function api<T>(sim: RunningSimulator, path: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; body: T }> {
  const response = await fetch(`${sim.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: { 'content-type': 'application/json', 'x-api-key': sim.apiKey },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** The local record of `requestId`. */
async function localRecord(sim: RunningSimulator, requestId: string): Promise<ReplayedRecord> {
  const { body } = await api<{ requests: ReplayedRecord[] }>(sim, `/requests/v3?id=${requestId}`);
  return body.requests[0]!;
}

/** The next committed status change of `requestId`. */
function nextChange(sim: RunningSimulator, requestId: string): Promise<void> {
  return new Promise((resolve) => {
    const unsubscribe = sim.control.events.subscribe((change) => {
      if (change.requestId !== requestId) return;
      unsubscribe();
      resolve();
    });
  });
}

/** The request's record once it is settled: a final status, the solver done with it, its refund recorded when there is one. */
async function settledRecord(sim: RunningSimulator, requestId: string): Promise<ReplayedRecord> {
  for (;;) {
    const changed = nextChange(sim, requestId);
    const record = await localRecord(sim, requestId);
    if (SETTLED.has(record.status)) {
      // a failure is settled only once the solver is done with it: a refund may follow (failure → refund)
      await sim.control.solver.idle();
      const now = await localRecord(sim, requestId);
      const refundDone = now.status !== 'refund' || now.data.outTxs.some((tx) => tx.type === 'refund');
      if (SETTLED.has(now.status) && refundDone && sim.control.solver.work().every((item) => item.requestId !== requestId)) return now;
    }
    await changed;
  }
}

/** Waits (bounded in real time) until the request settles; past the bound, says what is pending. */
async function waitUntilSettled(sim: RunningSimulator, requestId: string): Promise<ReplayedRecord> {
  try {
    return await withinWallTime(settledRecord(sim, requestId), SETTLE_TIMEOUT_SECONDS, `the replayed request ${requestId}`);
  } catch (error) {
    if (!(error instanceof StepBoundReached)) throw error;
    const record = await localRecord(sim, requestId);
    const work = sim.control.solver.work().find((item) => item.requestId === requestId);
    const awaiting = work?.awaiting ? `; the solver waits for its ${work.awaiting.kind ?? 'transaction'} ${work.awaiting.txHash} on chain ${work.awaiting.chainId}` : work ? '; the solver is still working on it' : '';
    throw new Error(`the replayed request ${requestId} is still ${record.status}${SETTLED.has(record.status) ? ' (its refund not yet recorded)' : ''} after ${SETTLE_TIMEOUT_SECONDS} s${awaiting}`, { cause: error });
  }
}

/**
 * Runs the replay: a simulator in this process with just the record's chains, each forked at its
 * point (no `--db`, port 0); what the deposit spent given back to the user where the origin's fork
 * reads the upstream after it; a local quote with the record's parameters; the local solver put
 * where the upstream's stood on the destination; the deposit made again as the record's user;
 * then the solver acts and the request settles. Stops the simulator whatever happens.
 */
export async function runReplay(params: { record: UpstreamRecord; plan: ReplayPlan; log?: (line: string) => void; startOptions?: ReplayStartOptions }): Promise<{ replayed: ReplayedRecord; notes: string[] }> {
  const { record, plan } = params;
  const forks = plan.origin.chainId === plan.destination.chainId ? [plan.origin] : [plan.origin, plan.destination];
  const sim = await startSimulator({
    ...params.startOptions,
    port: 0,
    env: {},
    log: params.log ?? (() => undefined),
    chains: forks.map((fork) => ({ id: fork.chainId, vm: fork.vm })),
    fork: Object.fromEntries(forks.map((fork) => [fork.chainId, fork.url])),
    forkBlock: Object.fromEntries(forks.filter((fork) => fork.point.pinned && fork.point.block !== null).map((fork) => [fork.chainId, fork.point.block!])),
    // a chain that mines only when asked (Bitcoin) mines a block every second, as its network would: the solver's fill or refund there is mined
    bvmBlockTimeSeconds: 1,
  });
  try {
    const notes: string[] = [];
    const { currencyIn, currencyOut } = record.data.metadata;
    if (record.depositAddress) notes.push('the record paid a deposit address; the replay pays through the quote\'s steps');
    const { origin, destination } = plan;
    const local = (chainId: number) => ({ localChain: sim.control.chain(chainId), localRpcUrl: sim.chains.find((chain) => chain.id === chainId)!.rpcUrl });
    if (origin.forking.restoreDepositFunds) {
      notes.push(...(await origin.forking.restoreDepositFunds({ chainId: origin.chainId, localChain: local(origin.chainId).localChain, upstreamUrl: origin.url, user: record.user, depositTxHash: record.data.inTxs[0]!.txHash })));
    }
    const quote = await api<QuoteAnswer & { errorCode?: string; message?: string }>(sim, '/quote/v2', {
      method: 'POST',
      body: {
        user: record.user,
        recipient: record.recipient ?? record.user,
        originChainId: currencyIn.currency.chainId,
        destinationChainId: currencyOut.currency.chainId,
        originCurrency: currencyIn.currency.address,
        destinationCurrency: currencyOut.currency.address,
        amount: currencyIn.amount,
        tradeType: 'EXACT_INPUT',
      },
    });
    if (quote.status !== 200) throw new ReplayInputError(`the local quote of request ${record.id}'s parameters was refused: ${quote.body.errorCode}: ${quote.body.message}`);
    const depositStep = quote.body.steps.find((step) => step.requestId !== undefined) ?? quote.body.steps[0]!;
    const requestId = depositStep.requestId!;

    if (destination.upstreamSolver === undefined) notes.push(`chain ${destination.chainId}: the upstream names no solverAddresses; the local solver keeps its own balances`);
    else {
      notes.push(
        ...(await destination.forking.standInForSolver({
          chainId: destination.chainId,
          ...local(destination.chainId),
          upstreamUrl: destination.url,
          block: destination.point.pinned ? destination.point.block : null,
          upstreamSolver: destination.upstreamSolver,
          localSolver: sim.control.chain(destination.chainId).describe().solverAddress,
          currency: currencyOut.currency.address,
          native: chainKindFacts(destination.vm).recordNativeAddress.test(currencyOut.currency.address),
        })),
      );
    }
    const items = quote.body.steps.flatMap((step) => step.items.map((item) => item.data));
    const sent = await origin.forking.depositAs({
      chainId: origin.chainId,
      ...local(origin.chainId),
      from: record.user,
      currency: currencyIn.currency.address,
      native: chainKindFacts(origin.vm).recordNativeAddress.test(currencyIn.currency.address),
      amount: BigInt(currencyIn.amount ?? '0'),
      items,
    });
    notes.push(...sent.notes);
    return { replayed: await waitUntilSettled(sim, requestId), notes };
  } finally {
    await sim.stop();
  }
}
