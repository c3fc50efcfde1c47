import type { Hex } from 'viem';
import type { ChainAdapter } from '../chains/ChainAdapter';
import type { GaslessRelayCapability } from '../chains/capabilities/GaslessRelayCapability';
import { requireCapability } from '../chains/capabilities/requireCapability';
import { RelayBroadcastRefusedError } from '../chains/RelayBroadcastRefusedError';
import type { VirtualClock } from '../clock/VirtualClock';
import type { RelayedCall } from '../domain/execute/relayedCall';
import { simulationFailureBody } from '../domain/execute/simulationFailure';
import { usdMicrosOf } from '../domain/money/usdValue';
import type { RequestFeature, RequestRecord } from '../domain/request/requestRecord';
import type { FailReason } from '../domain/request/requestStatus';
import { ExecuteChainMismatchError, ExecuteSimulationFailedError, PermitNotQuotedError, RequestNotWaitingError, SponsorBalanceTooLowError } from '../errors/executeErrors';
import { LookupChainNotSupportedError } from '../errors/lookupErrors';
import { RequestNotFoundError } from '../errors/requestErrors';
import { transitionRequest, type RequestFacts, type RequestLifecycle } from '../lifecycle/transitionRequest';
import type { MetaStore } from '../store/MetaStore';
import type { SponsorBalanceStore } from '../store/SponsorBalanceStore';
import { openRelayedCallRequest } from './openRelayedCallRequest';

export interface GaslessRelayDeps {
  lifecycle: RequestLifecycle;
  /** The sequence a relayed call's own request id is numbered by, and the seed it is derived from. */
  meta: MetaStore;
  seed: number;
  chains: ReadonlyMap<number, ChainAdapter>;
  clock: VirtualClock;
  sponsorBalances: SponsorBalanceStore;
  /** The relay fault scripted for a request (solver rules `refuseRelay` / `dropRelay`). */
  relayFaultFor: (record: RequestRecord) => 'refuse' | 'drop' | undefined;
  /** SPEC §7.2: how long a broadcast may go unseen before TRANSACTION_NOT_INCLUDED (the fill's window). */
  inclusionWindowSeconds: number;
  log: (message: string, error?: unknown) => void;
}

/** `POST /execute` with `executionKind: "rawCalls"`. */
export interface RawCallExecution {
  apiKey: string;
  chainId: number;
  call: RelayedCall;
  requestId?: string;
  subsidizeFees: boolean;
  /** `executionOptions.referrer`, kept with a request the call opens. */
  referrer?: string;
}

/** `POST /execute/permits`: the signature of a quote's signature step, posted by the SDK. */
export interface SignedDepositExecution {
  requestId: string;
  signature: string;
  validAfter: bigint;
  validBefore: bigint;
}

export interface ExecutionAccepted {
  requestId: string;
  message: string;
}

/**
 * SPEC §1.6 gasless execution and gasless swaps. The relayer (an account of its own on each chain)
 * simulates the call with a full trace — a revert is a 400 with the decoded error (§7.1) — then,
 * for a call that deposits for a request, moves the request `waiting → depositing` (through
 * `transitionRequest`), checks the sponsor balance of a subsidized call, and broadcasts, paying the
 * gas. The chain's deposit watcher then sees the deposit as usual (`depositing → pending → …`).
 * A refused broadcast fails the request with TRANSACTION_SUBMISSION_FAILED, one never included
 * with TRANSACTION_NOT_INCLUDED, one that reverts on chain with the reason its revert maps to (§7.2).
 * A raw call that names no request and deposits for none opens a `Call` request of its own
 * (`openRelayedCallRequest`): it goes `depositing → success` when the relayed transaction lands.
 */
/** A chain with a gasless relayer. */
type RelayingChain = ChainAdapter & { readonly gaslessRelay: GaslessRelayCapability };

export class GaslessRelay {
  constructor(private readonly deps: GaslessRelayDeps) {}

  async executeRawCall(execution: RawCallExecution): Promise<ExecutionAccepted> {
    const chain = this.chainOf(execution.chainId);
    const named = execution.requestId === undefined ? undefined : this.waitingRequest(execution.requestId);
    if (named && named.quote.originChainId !== chain.chainId) throw new ExecuteChainMismatchError(named.id, chain.chainId, named.quote.originChainId);
    return this.relay(chain, execution.call, named, {
      apiKey: execution.apiKey,
      subsidize: execution.subsidizeFees,
      feature: 'gasless_execution',
      requestId: execution.requestId ?? null,
      referrer: execution.referrer || null,
    });
  }

  async executeSignedDeposit(execution: SignedDepositExecution): Promise<ExecutionAccepted> {
    const record = this.waitingRequest(execution.requestId);
    if (!record.quote.features.includes('gasless_swap')) throw new PermitNotQuotedError(record.id, 'its quote was not made with usePermit');
    const chain = this.chainOf(record.quote.originChainId);
    const call = chain.gaslessRelay.signedDepositCall({
      requestId: record.id as Hex,
      user: record.quote.user,
      currency: record.quote.currencyIn,
      amount: record.quote.amounts.amountIn,
      signature: execution.signature,
      validAfter: execution.validAfter,
      validBefore: execution.validBefore,
    });
    // the quote's signature step is paid for by the service (no sponsor balance is drawn)
    return this.relay(chain, call, record, { apiKey: undefined, subsidize: false, feature: 'gasless_swap', requestId: record.id, referrer: null });
  }

  private async relay(
    chain: RelayingChain,
    call: RelayedCall,
    named: RequestRecord | undefined,
    options: { apiKey: string | undefined; subsidize: boolean; feature: RequestFeature; requestId: string | null; referrer: string | null },
  ): Promise<ExecutionAccepted> {
    const simulation = await chain.gaslessRelay.simulateRelayedCall(call);
    if (!simulation.ok) {
      const body = simulationFailureBody(simulation);
      throw new ExecuteSimulationFailedError(body.label, body.message, options.requestId, body.details);
    }
    // a call sent without requestId still belongs to the request its deposit names; one that
    // deposits for none is a request of its own
    const deposited = named ?? this.requestDepositedBy(simulation.depositRequestIds);
    const record = deposited ?? openRelayedCallRequest(this.deps, chain, call, { apiKey: options.apiKey, referrer: options.referrer });
    const settlesOnReceipt = deposited === undefined;
    const neededUsdMicros = usdMicrosOf(chain.gasCosts.ofGasUnits(simulation.gasUnits).amount, chain.nativeCurrency());
    const sponsor = options.subsidize && options.apiKey !== undefined ? options.apiKey : undefined;
    const sponsorBalance = sponsor === undefined ? 0n : this.deps.sponsorBalances.balanceOf(sponsor);
    const sponsorShort = sponsor !== undefined && sponsorBalance < neededUsdMicros;

    // the deposit is being made through /execute: waiting → depositing (SPEC §3). Read again after
    // the simulation's await: a concurrent call for the same request may have taken it meanwhile.
    const now = this.deps.lifecycle.requests.get(record.id);
    if (now?.status !== 'waiting') throw new RequestNotWaitingError(record.id, now?.status ?? 'gone');
    transitionRequest(this.deps.lifecycle, {
      requestId: record.id,
      to: 'depositing',
      update: (r) => {
        if (!r.quote.features.includes(options.feature)) r.quote.features.push(options.feature);
      },
    });
    if (sponsorShort) {
      this.fail(record.id, 'SPONSOR_BALANCE_TOO_LOW');
      throw new SponsorBalanceTooLowError(sponsorBalance, neededUsdMicros, record.id);
    }
    const fault = this.deps.relayFaultFor(record);
    const txHash = await this.broadcast(chain, call, simulation.gasUnits, record.id, fault);
    if (txHash === undefined) return { requestId: record.id, message: 'The relayer could not broadcast the call' };
    if (fault === 'drop') this.watchInclusion(chain, txHash, record.id);
    else void this.settle(chain, txHash, record.id, sponsor, settlesOnReceipt);
    return { requestId: record.id, message: `Relayed as ${txHash}` };
  }

  /** Sends the call; a refused broadcast fails the request (TRANSACTION_SUBMISSION_FAILED) and answers undefined. */
  private async broadcast(chain: RelayingChain, call: RelayedCall, gasUnits: bigint, requestId: string, fault?: 'refuse' | 'drop'): Promise<string | undefined> {
    try {
      return await chain.gaslessRelay.relayCall(call, gasUnits, { refusedByNode: fault === 'refuse', withoutSending: fault === 'drop' });
    } catch (error) {
      if (!(error instanceof RelayBroadcastRefusedError)) throw error;
      this.deps.log(`relayer: chain ${chain.chainId} refused the call of ${requestId}: ${error.reason}`);
      this.fail(requestId, 'TRANSACTION_SUBMISSION_FAILED');
      return undefined;
    }
  }

  /**
   * After the broadcast: the receipt. The sponsor pays the gas it cost; a call that reverted on
   * chain fails its request; one that succeeded is indexed now (its deposit → pending), or, when
   * the call is its own request (`settlesOnReceipt`), the request succeeds with it.
   */
  private async settle(chain: RelayingChain, txHash: string, requestId: string, sponsor: string | undefined, settlesOnReceipt: boolean): Promise<void> {
    try {
      const receipt = await chain.gaslessRelay.awaitRelayedCall(txHash);
      if (sponsor !== undefined) this.deps.sponsorBalances.debit(sponsor, usdMicrosOf(receipt.fee, chain.nativeCurrency()));
      if (receipt.status === 'failure') {
        const facts = await chain.gaslessRelay.failedRelayedCall(txHash);
        this.fail(requestId, facts.failure.failReason ?? 'TRANSACTION_REVERTED', (r) => {
          if (!settlesOnReceipt) return;
          r.inTxs.push(receipt.entry);
          r.failedTxHash = receipt.entry.txHash;
          r.failedTxBlockNumber = receipt.entry.block;
          r.failedCallData = facts.callData;
          r.failedRevert = facts.failure.details;
        });
        return;
      }
      if (settlesOnReceipt) {
        if (this.deps.lifecycle.requests.get(requestId)?.status !== 'depositing') return;
        transitionRequest(this.deps.lifecycle, { requestId, to: 'success', update: (r) => void r.inTxs.push(receipt.entry) });
        return;
      }
      await chain.syncNow();
    } catch (error) {
      this.deps.log(`relayer: the call ${txHash} on chain ${chain.chainId} did not settle`, error);
    }
  }

  /** SPEC §7.2 TRANSACTION_NOT_INCLUDED: a relayed call its chain has not seen once the window elapsed. */
  private watchInclusion(chain: RelayingChain, txHash: string, requestId: string): void {
    this.deps.clock.setTimeout(() => {
      void chain.gaslessRelay
        .hasRelayedCall(txHash)
        .then((seen) => {
          if (!seen) this.fail(requestId, 'TRANSACTION_NOT_INCLUDED');
        })
        .catch((error: unknown) => this.deps.log(`relayer: could not look for ${txHash} on chain ${chain.chainId}`, error));
    }, this.deps.inclusionWindowSeconds * 1000);
  }

  /** depositing → failure with `failReason` (and the failed transaction's facts), unless the request moved on meanwhile. */
  private fail(requestId: string, failReason: FailReason, alsoRecord?: (facts: RequestFacts) => void): void {
    if (this.deps.lifecycle.requests.get(requestId)?.status !== 'depositing') return;
    transitionRequest(this.deps.lifecycle, {
      requestId,
      to: 'failure',
      update: (r) => {
        r.failReason = failReason;
        alsoRecord?.(r);
      },
    });
  }

  private chainOf(chainId: number): RelayingChain {
    const chain = this.deps.chains.get(chainId);
    if (!chain) throw new LookupChainNotSupportedError(chainId, [...this.deps.chains.keys()]);
    requireCapability(chain, 'gaslessRelay', 'POST /execute and /execute/permits');
    return chain as RelayingChain;
  }

  private waitingRequest(requestId: string): RequestRecord {
    const record = this.deps.lifecycle.requests.get(requestId);
    if (!record) throw new RequestNotFoundError(requestId);
    if (record.status !== 'waiting') throw new RequestNotWaitingError(record.id, record.status);
    return record;
  }

  /** The first waiting request a simulated call's deposits name. */
  private requestDepositedBy(requestIds: string[]): RequestRecord | undefined {
    for (const id of requestIds) {
      const record = this.deps.lifecycle.requests.get(id);
      if (record?.status === 'waiting') return record;
    }
    return undefined;
  }
}
