import { decodeEventLog, erc20Abi, getAddress, zeroAddress, type Address, type Hex, type PublicClient, type TransactionReceipt } from 'viem';
import type { Delivery } from '../../domain/request/requestRecord';

interface CallFrame {
  from: Address;
  to?: Address;
  value?: Hex;
  error?: string;
  calls?: CallFrame[];
}

/**
 * What a mined transaction delivered, from the chain itself: native value moved by any call frame
 * of Anvil's call trace (`debug_traceTransaction` with the callTracer) and ERC-20 `Transfer` logs of
 * the receipt, leaving out movements between the simulator's own contracts (`internal`: receiver,
 * pool, wrapped native, depository, solver …). Summed per (recipient, currency). Undefined when the
 * node cannot trace the transaction any more (a block from before a reload of saved state).
 */
export async function readDeliveries(client: PublicClient, receipt: TransactionReceipt, internal: ReadonlySet<string>): Promise<Delivery[] | undefined> {
  const totals = new Map<string, Delivery>();
  const add = (to: Address, currency: Address, amount: bigint) => {
    if (amount === 0n || internal.has(to.toLowerCase())) return;
    const key = `${to.toLowerCase()}:${currency.toLowerCase()}`;
    const known = totals.get(key);
    totals.set(key, { to: getAddress(to), currency: getAddress(currency), amount: (known?.amount ?? 0n) + amount });
  };
  if (receipt.status === 'success') {
    const trace = await client
      .request({ method: 'debug_traceTransaction', params: [receipt.transactionHash, { tracer: 'callTracer' }] } as never)
      .then((result) => result as CallFrame)
      .catch(() => undefined);
    const walk = (frame: CallFrame) => {
      if (frame.error) return; // a reverted frame moved nothing
      if (frame.to && frame.value && BigInt(frame.value) > 0n) add(frame.to, zeroAddress, BigInt(frame.value));
      for (const call of frame.calls ?? []) walk(call);
    };
    if (!trace) return undefined;
    walk(trace);
    for (const log of receipt.logs) {
      try {
        const event = decodeEventLog({ abi: erc20Abi, data: log.data, topics: log.topics });
        if (event.eventName === 'Transfer') add(event.args.to, log.address, event.args.value);
      } catch {
        // not a Transfer
      }
    }
  }
  return [...totals.values()];
}
