import { HttpRequestError, SocketClosedError, TimeoutError, type Transport } from 'viem';
import { QuoteRpcFault } from '../../errors/upstreamRpcErrors';
import type { QuoteRpcScope } from '../QuoteRpcScope';
import type { RpcFaultStore } from '../RpcFaultStore';
import { SameStateReadCache } from './SameStateReadCache';

/**
 * The one hook on an EVM chain's RPC path. Outside a quote it is the plain transport. Inside
 * one (`QuoteRpcScope`): an admin fault for the chain fails the call at once (`rpc-timeout` as a
 * timeout, `rpc-error` as an HTTP failure), a call slower than `timeoutMs` is abandoned, and a
 * transport failure (no answer, non-2xx, a lost IPC socket) becomes a `QuoteRpcFault` — which viem does not retry,
 * so the quote answers REQUEST_TIMED_OUT / RPC_HTTP_ERROR promptly. JSON-RPC errors (reverts)
 * pass through untouched. Inside a quote, state reads answer from `reads` while the chain's
 * state stands (`stateChangeTransport` below tells it when the state may have changed).
 */
export function quoteScopedTransport(
  inner: Transport,
  params: { chainId: number; scope: QuoteRpcScope; faults: RpcFaultStore; timeoutMs: number; reads?: SameStateReadCache },
): Transport {
  return (options) => {
    const base = inner(options);
    const request = (async (args: Parameters<typeof base.request>[0], requestOptions?: Parameters<typeof base.request>[1]) => {
      if (!params.scope.active()) return base.request(args, requestOptions);
      const fault = params.faults.faultFor(params.chainId);
      if (fault === 'rpc-timeout') throw new QuoteRpcFault('timeout', params.chainId, args.method, new Error('admin fault rpc-timeout'));
      if (fault === 'rpc-error') throw new QuoteRpcFault('http', params.chainId, args.method, new Error('admin fault rpc-error (HTTP 503)'));
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<never>((_, reject) => {
        // wall-clock I/O timeout of a real RPC call, not simulated time
        timer = setTimeout(() => reject(new QuoteRpcFault('timeout', params.chainId, args.method, new Error(`no answer in ${params.timeoutMs} ms`))), params.timeoutMs);
      });
      try {
        const answer = params.reads ? params.reads.read(args.method, args.params, () => base.request(args, requestOptions)) : base.request(args, requestOptions);
        return await Promise.race([answer, timedOut]);
      } catch (error) {
        if (error instanceof TimeoutError) throw new QuoteRpcFault('timeout', params.chainId, args.method, error);
        // the node's socket lost (IPC) is a transport failure as an HTTP one is
        if (error instanceof HttpRequestError || error instanceof SocketClosedError) throw new QuoteRpcFault('http', params.chainId, args.method, error);
        throw error;
      } finally {
        clearTimeout(timer);
      }
    }) as typeof base.request;
    return { ...base, request };
  };
}

/** Tells `reads` the state may have changed around every call that may write (a send, a cheat call). */
export function stateChangeTransport(inner: Transport, reads: SameStateReadCache): Transport {
  return (options) => {
    const base = inner(options);
    const request = (async (args: Parameters<typeof base.request>[0], requestOptions?: Parameters<typeof base.request>[1]) => {
      if (!SameStateReadCache.mayWrite(args.method)) return base.request(args, requestOptions);
      reads.stateChanged();
      try {
        return await base.request(args, requestOptions);
      } finally {
        reads.stateChanged();
      }
    }) as typeof base.request;
    return { ...base, request };
  };
}
