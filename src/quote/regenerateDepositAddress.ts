import type { Address, Hex } from 'viem';
import type { ChainAdapter } from '../chains/ChainAdapter';
import { regeneratesRequest, type RegeneratingQuote } from '../domain/request/regeneratedRequest';
import type { RequestRecord } from '../domain/request/requestRecord';
import { recordRequestFacts, type RequestLifecycle } from '../lifecycle/transitionRequest';
import type { DepositAddressStore } from '../store/DepositAddressStore';

interface RegenerationDeps {
  lifecycle: RequestLifecycle;
  depositAddresses: DepositAddressStore;
}

/**
 * SPEC §2.3 `supersededByRequestId`, at quote time: the earlier request of the same user and
 * route whose unpaid deposit address the new quote takes over (`regeneratesRequest`), newest
 * first — only on an origin chain that regenerates deposit addresses (BVM) and whose address
 * registry still names that request.
 */
export function requestToRegenerate(deps: RegenerationDeps, origin: ChainAdapter, quote: RegeneratingQuote): RequestRecord | undefined {
  if (!origin.depositAddresses?.regeneratesDepositAddresses) return undefined;
  return deps.lifecycle.requests
    .waitingFromUser(origin.chainId, quote.user)
    .find((earlier) => regeneratesRequest(earlier, quote) && deps.depositAddresses.at(origin.chainId, earlier.depositAddress!.address)?.requestId.toLowerCase() === earlier.id.toLowerCase());
}

/**
 * In the new request's own transaction: the deposit address becomes `requestId`'s (payments into
 * it are that request's from now on), and the request that held it — if it still waits with
 * nothing paid, as when the quote began — gets `supersededByRequestId` through the lifecycle. One
 * that was paid meanwhile keeps its payment and is not superseded.
 */
export function handOverDepositAddress(deps: RegenerationDeps & { now: number }, chainId: number, address: string, requestId: Hex, quote: RegeneratingQuote): void {
  const registered = deps.depositAddresses.at(chainId, address);
  const holder = registered ? deps.lifecycle.requests.get(registered.requestId) : undefined;
  if (holder && holder.id.toLowerCase() !== requestId.toLowerCase() && regeneratesRequest(holder, quote)) {
    recordRequestFacts(deps.lifecycle, holder.id, (record) => {
      record.supersededByRequestId = requestId;
    });
  }
  if (registered) deps.depositAddresses.reassign(chainId, address, requestId);
  else deps.depositAddresses.open({ chainId, address: address as Address, requestId, createdAt: deps.now });
}
