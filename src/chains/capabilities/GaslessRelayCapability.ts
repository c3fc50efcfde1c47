import type { Currency } from '../../domain/chain/currency';
import type { RelayedCall, RelayedCallReceipt, RelayedCallSimulation, RelaySendOptions } from '../../domain/execute/relayedCall';
import type { QuoteStep } from '../../domain/quote/quoteStep';
import type { DepositStepParams } from '../ChainAdapter';
import type { FailedTransactionFacts } from '../SolverWallet';

/** A deposit the user signed instead of sending (SPEC §1.6 gasless swaps, quote `usePermit`). */
export interface SignedDepositParams extends DepositStepParams {
  /** The signature over the quote's signature step (`data.sign`). */
  signature: string;
  /** The authorization's validity window, unix seconds, as the step's typed data states it. */
  validAfter: bigint;
  validBefore: bigint;
}

/**
 * The gasless relayer of a chain (SPEC §1.6 gasless execution and swaps, §7.1 `/execute` simulation
 * errors): a capability a chain has or has not, so a chain without one needs no refusing stubs.
 */
export interface GaslessRelayCapability {
  /** Runs `call` from the relayer against the chain's current state with a full call trace; nothing is sent. */
  simulateRelayedCall(call: RelayedCall): Promise<RelayedCallSimulation>;
  /**
   * Signs `call` from the relayer's account (the relayer pays the gas; an authorization list is
   * honoured) and broadcasts it; answers the transaction hash. A node that refuses the send throws
   * `RelayBroadcastRefusedError`.
   */
  relayCall(call: RelayedCall, gasUnits: bigint, options?: RelaySendOptions): Promise<string>;
  /** Waits for a relayed call's receipt. */
  awaitRelayedCall(txHash: string): Promise<RelayedCallReceipt>;
  /** Whether the node knows a relayed call: waiting in its pool or mined (SPEC §7.2 TRANSACTION_NOT_INCLUDED). */
  hasRelayedCall(txHash: string): Promise<boolean>;
  /** The call and error of a relayed call that was mined and failed (SPEC §2.3 failedCallData). */
  failedRelayedCall(txHash: string): Promise<FailedTransactionFacts>;
  /** Whether `currency` can be deposited with a signature alone (EIP-3009 on EVM), so a `usePermit` quote gets a signature step. */
  canDepositBySignature(currency: Currency): boolean;
  /** The quote's signature step of a deposit by signature (`data.sign` typed data, `data.post` → `/execute/permits`). */
  buildSignedDepositSteps(params: DepositStepParams): Promise<QuoteStep[]>;
  /** The call the relayer submits to pull a signed deposit into the depository. */
  signedDepositCall(params: SignedDepositParams): RelayedCall;
}
