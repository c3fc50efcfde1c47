import type { Address } from 'viem';
import type { ChainAdapter } from '../chains/ChainAdapter';
import type { RelayedCall } from '../domain/execute/relayedCall';
import { relayedCallQuoteFacts, relayedCallRequestId } from '../domain/execute/relayedCallRequest';
import { newWaitingRequest, type RequestRecord } from '../domain/request/requestRecord';
import { createRequest, type RequestLifecycle } from '../lifecycle/transitionRequest';
import type { MetaStore } from '../store/MetaStore';

/** The sequence relayed calls' request ids are numbered by (a quote's ids have their own). */
const RELAYED_CALL_SEQUENCE_KEY = 'relayed_call_sequence';

export interface RelayedCallRequestDeps {
  lifecycle: RequestLifecycle;
  meta: MetaStore;
  seed: number;
}

/**
 * Creates the `Call` request of a gasless raw call that names none and deposits for none (SPEC
 * §1.6, `domain/execute/relayedCallRequest.ts`), in `waiting`, with its sequence number in the
 * same SQLite transaction; the relay then moves it on like any other request.
 */
export function openRelayedCallRequest(
  deps: RelayedCallRequestDeps,
  chain: ChainAdapter,
  call: RelayedCall,
  context: { apiKey: string | undefined; referrer: string | null },
): RequestRecord {
  const sequence = deps.meta.takeCounter(RELAYED_CALL_SEQUENCE_KEY);
  const id = relayedCallRequestId({ seed: deps.seed, sequence: sequence.value, chainId: chain.chainId, call });
  const now = deps.lifecycle.clock.now();
  const facts = relayedCallQuoteFacts({
    chainId: chain.chainId,
    call,
    user: chain.normalizeAddress(call.to) as Address,
    nativeCurrency: chain.nativeCurrency(),
    depository: chain.describe().depository as Address,
    referrer: context.referrer,
    now,
  });
  const record = newWaitingRequest(id, facts, now, { apiKey: context.apiKey ?? null });
  createRequest(deps.lifecycle, record, () => sequence.store());
  return record;
}
