import type { RpcFaultKind } from '../domain/chain/rpcFaultKinds';

/**
 * Chain RPC faults the admin layer switches on (rule data, applied at one hook: the EVM
 * adapter's transport, see `quoteScopedTransport`). They affect the RPC calls a quote makes
 * (`POST /quote/v2`, `/quote`, `/price`), never the solver's or the watchers' — so a fault
 * shows up as the §7.1 transient errors without breaking requests already under way.
 */
export interface RpcFault {
  chainId: number;
  kind: RpcFaultKind;
}

export class RpcFaultStore {
  private readonly faults = new Map<number, RpcFaultKind>();

  set(fault: RpcFault): void {
    this.faults.set(fault.chainId, fault.kind);
  }

  /** Clears one chain's fault, or every fault. */
  clear(chainId?: number): void {
    if (chainId === undefined) this.faults.clear();
    else this.faults.delete(chainId);
  }

  faultFor(chainId: number): RpcFaultKind | undefined {
    return this.faults.get(chainId);
  }

  list(): RpcFault[] {
    return [...this.faults.entries()].map(([chainId, kind]) => ({ chainId, kind })).sort((a, b) => a.chainId - b.chainId);
  }

  reset(): void {
    this.faults.clear();
  }

  /** Replaces every fault with `faults` (a world revert puts back those of its snapshot). */
  replaceAll(faults: readonly RpcFault[]): void {
    this.faults.clear();
    for (const fault of faults) this.set(fault);
  }
}
