import type { Address, Hex } from 'viem';
import type { DepositAddressPayment } from '../../domain/chain/observedDeposit';
import type { QuoteStep } from '../../domain/quote/quoteStep';
import type { DepositAddressStore } from '../../store/DepositAddressStore';
import type { DepositStepParams } from '../ChainAdapter';
import type { DepositAddressCapability } from '../capabilities/DepositAddressCapability';
import type { StartedEvmChain } from './startEvmChain';

/**
 * An EVM chain's `depositAddresses` capability (SPEC §1.6 `useDepositAddress`): a request's own
 * forwarder address, opened at quote time, swept by the solver into the depository once paid.
 */
export class EvmDepositAddressCapability implements DepositAddressCapability {
  readonly regeneratesDepositAddresses = false;

  constructor(
    private readonly deps: {
      /** The started chain's parts. */
      parts: () => StartedEvmChain;
      store: DepositAddressStore;
      solver: () => Address;
      /** A stored solver transaction was mined: confirmed, or failed when it reverted. */
      markMined: (requestId: Hex, kind: 'sweep', status: 'success' | 'reverted') => void;
      syncNow: () => Promise<void>;
    },
  ) {}

  async open(params: DepositStepParams): Promise<{ address: string; steps: QuoteStep[] }> {
    return this.deps.parts().steps.openDepositAddress(params);
  }

  async sweep(requestId: Hex, payment: DepositAddressPayment): Promise<{ txHash: Hex; status: 'success' | 'failure' }> {
    const { wallet, depositAddresses } = this.deps.parts();
    const solver = this.deps.solver();
    const txHash = await wallet.sendCall(requestId, 'sweep', () => depositAddresses.sweepCall(requestId, payment, solver));
    const receipt = await wallet.waitForReceipt(txHash);
    this.deps.markMined(requestId, 'sweep', receipt.status);
    if (receipt.status !== 'success') return { txHash, status: 'failure' };
    this.deps.store.markSwept(requestId);
    await this.deps.syncNow(); // index the sweep's Deposit now rather than at the next head
    return { txHash, status: 'success' };
  }
}
