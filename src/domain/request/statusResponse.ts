import type { RequestRecord } from './requestRecord';
import type { FailureDetails } from '../fill/chainFailure';
import { reportedFailReason, reportedRefundFailReason, type FailReason, type RefundFailReason, type RequestStatus } from './requestStatus';

/** SPEC §2.4: the body of `GET /intents/status/v3`. */
export interface StatusResponse {
  status: RequestStatus;
  inTxHashes: string[];
  txHashes: string[];
  updatedAt: number;
  originChainId: number;
  destinationChainId: number;
  details: StatusDetails | null;
  failReason: FailReason;
  refundFailReason: RefundFailReason;
}

/** Origin-side hashes: deposits and refunds (SPEC §2.4 `inTxHashes`). */
export function inTxHashesOf(record: RequestRecord): string[] {
  return record.inTxs.map((tx) => tx.txHash);
}

/** Destination fill hashes (SPEC §2.4 `txHashes`). */
export function fillTxHashesOf(record: RequestRecord): string[] {
  const mined = record.outTxs.filter((tx) => tx.type === 'fill').map((tx) => tx.txHash);
  const inFlight = record.submittedTxs.filter((tx) => tx.type === 'fill' && !mined.includes(tx.txHash)).map((tx) => tx.txHash);
  return [...mined, ...inFlight];
}

/** SPEC §2.4 `details`: why the failed fill failed, in the chain's words (EVM: its decoded revert data). */
export interface StatusDetails {
  decodedRevert: FailureDetails;
}

/** `details` of a status: the failure of a fill that failed, else null. */
export function statusDetailsOf(record: RequestRecord): StatusDetails | null {
  const failure = record.failedRevert;
  return failure ? { decodedRevert: failure } : null;
}

export function buildStatusResponse(record: RequestRecord): StatusResponse {
  return {
    status: record.status,
    inTxHashes: inTxHashesOf(record),
    txHashes: fillTxHashesOf(record),
    updatedAt: record.updatedAt,
    originChainId: record.quote.originChainId,
    destinationChainId: record.quote.destinationChainId,
    details: statusDetailsOf(record),
    failReason: reportedFailReason(record.status, record.failReason),
    refundFailReason: reportedRefundFailReason(record.refundFailReason),
  };
}

/** SPEC §6.1 `data.depositAddress`. */
export interface StatusEventDepositAddress {
  address: string;
  depositAddressType: 'open' | 'strict';
  depositor: string | null;
  depositTxHash: string | null;
}

/** SPEC §6.1: `data` of a `request.status.updated` event. */
export interface StatusEventData extends StatusResponse {
  requestId: string;
  referrer: string | null;
  depositAddress: StatusEventDepositAddress | null;
}

/** A deposit address as events and the older listings name it (`depositAddressType`, no recovery address). */
export function statusEventDepositAddress(deposit: RequestRecord['depositAddress']): StatusEventDepositAddress | null {
  return deposit ? { address: deposit.address, depositAddressType: deposit.type, depositor: deposit.depositor, depositTxHash: deposit.depositTxHash } : null;
}

export function buildStatusEventData(record: RequestRecord): StatusEventData {
  return {
    ...buildStatusResponse(record),
    requestId: record.id,
    referrer: record.quote.referrer,
    depositAddress: statusEventDepositAddress(record.depositAddress),
  };
}
