import { zeroAddress, type Address, type Hex } from 'viem';
import type { Currency } from '../../domain/chain/currency';
import type { RelayedCall, RelayedCallReceipt, RelayedCallSimulation, RelaySendOptions } from '../../domain/execute/relayedCall';
import type { QuoteStep } from '../../domain/quote/quoteStep';
import type { DepositStepParams } from '../ChainAdapter';
import type { FailedTransactionFacts } from '../SolverWallet';
import type { GaslessRelayCapability, SignedDepositParams } from '../capabilities/GaslessRelayCapability';
import type { StartedEvmChain } from './startEvmChain';

/**
 * An EVM chain's gasless relayer (SPEC §1.6, the `gaslessRelay` capability): simulates and relays
 * calls from the relayer's account (`EvmRelayer`), and the stablecoin's deposits by signature.
 */
export class EvmGaslessRelay implements GaslessRelayCapability {
  constructor(
    private readonly deps: {
      /** The started chain's parts. */
      parts: () => StartedEvmChain;
      /** Journaled chain: the block is journaled before any record points at it. */
      durable: boolean;
      syncNow: () => Promise<void>;
    },
  ) {}

  simulateRelayedCall(call: RelayedCall): Promise<RelayedCallSimulation> {
    return this.deps.parts().relayer.simulate(call);
  }

  relayCall(call: RelayedCall, gasUnits: bigint, options: RelaySendOptions = {}): Promise<string> {
    return this.deps.parts().relayer.send(call, gasUnits, options);
  }

  async awaitRelayedCall(txHash: string): Promise<RelayedCallReceipt> {
    const { receipt, transaction } = await this.deps.parts().relayer.awaitReceipt(txHash as Hex);
    const entry = await this.deps.parts().facts.transactionEntry(receipt, 'call', {
      from: transaction.from,
      to: transaction.to ?? zeroAddress,
      currency: this.deps.parts().nativeCurrency.address as Address,
      amount: transaction.value,
    });
    // durable: the block is journaled before any record points at it
    if (this.deps.durable) await this.deps.syncNow();
    return { txHash, status: entry.status, fee: entry.fee, entry };
  }

  async hasRelayedCall(txHash: string): Promise<boolean> {
    return this.deps
      .parts()
      .client.getTransaction({ hash: txHash as Hex })
      .then(
        () => true,
        () => false,
      );
  }

  failedRelayedCall(txHash: string): Promise<FailedTransactionFacts> {
    return this.deps.parts().facts.failedTransactionFacts(txHash as Hex);
  }

  /** The stablecoin takes EIP-3009 authorizations; the wrapped native and the native currency do not. */
  canDepositBySignature(currency: Currency): boolean {
    return !currency.isNative && currency.address.toLowerCase() === this.deps.parts().contracts.stablecoin.toLowerCase();
  }

  buildSignedDepositSteps(params: DepositStepParams): Promise<QuoteStep[]> {
    return this.deps.parts().steps.buildSignedDepositSteps(params);
  }

  signedDepositCall(params: SignedDepositParams): RelayedCall {
    return this.deps.parts().steps.signedDepositCall(params);
  }
}
