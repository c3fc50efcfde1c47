import type { RevertDetails } from './simulationFailure';
import type { TransactionEntry } from '../request/requestRecord';

/**
 * SPEC §1.6 gasless execution: a signed EIP-7702 authorization that delegates the signer's account
 * to `address` before the relayed call runs (the `/execute` body's `authorizationList[]`).
 */
export interface SignedAuthorization {
  chainId: number;
  address: string;
  nonce: number;
  yParity: number;
  r: string;
  s: string;
}

/** A call the simulator's relayer submits on a user's behalf, paying its gas (`POST /execute` `data`). */
export interface RelayedCall {
  to: string;
  data: string;
  value: bigint;
  authorizationList?: readonly SignedAuthorization[];
}

/** One frame of a call's trace, as `/execute` simulation errors show it (SPEC §7.1 `details`). */
export interface CallFrame {
  /** CALL, DELEGATECALL, STATICCALL, CREATE, … */
  type: string;
  from: string;
  to: string;
  /** The frame's calldata (the first 4 bytes name the function). */
  input: string;
  value: string;
  /** Why the frame failed (`execution reverted`, `out of gas`, …); absent when it succeeded. */
  error?: string;
  /** The frame's revert data, decoded (the service's revert kinds, SPEC §7.1 `details`). */
  revert?: RevertDetails;
}

/**
 * What simulating a relayed call on its chain shows. Success: the gas it needs and the request ids
 * its deposits name (so a call sent without `requestId` still finds its request). Failure: the
 * decoded revert of the innermost reverting frame and the trace's reverting path, as `/execute`
 * simulation errors show them.
 */
export type RelayedCallSimulation =
  | { ok: true; gasUnits: bigint; depositRequestIds: string[] }
  | { ok: false; revert: RevertDetails; topLevel: CallFrame; innermost: CallFrame; path: CallFrame[] };

/** How the relayer sends a call: normally, or with one of the relay faults (SPEC §7.2). */
export interface RelaySendOptions {
  /** The node refuses the broadcast (TRANSACTION_SUBMISSION_FAILED); sending throws `RelayBroadcastRefusedError`. */
  refusedByNode?: boolean;
  /** Signed but never sent (TRANSACTION_NOT_INCLUDED once the inclusion window elapses). */
  withoutSending?: boolean;
}

/** A relayed call once mined: its status, the gas fee the relayer paid (native units), and the transaction as a record entry (`type: call`). */
export interface RelayedCallReceipt {
  txHash: string;
  status: 'success' | 'failure';
  fee: bigint;
  entry: TransactionEntry;
}
