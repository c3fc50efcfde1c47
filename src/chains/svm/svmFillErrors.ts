import type { FailedTransactionFacts, FillSimulation } from '../SolverWallet';
import { describeSvmTransactionError, type SvmTransactionRecord } from '../../nodes/svm';
import { messageFailure, namedFailure, type ChainFailure } from '../../domain/fill/chainFailure';

/**
 * Custom error 1 of the programs a fill runs: the System program's `ResultWithNegativeLamports`
 * (a SOL transfer above the payer's lamports) and the SPL Token program's `InsufficientFunds`.
 */
const INSUFFICIENT_FUNDS_CUSTOM_CODE = 1;

/**
 * The name the solver reads a failed SVM transaction by: `InsufficientFunds` when the payer's SOL
 * or tokens ran short (the solver is the only payer of a fill, so it means SOLVER_BALANCE_TOO_LOW,
 * as on EVM), else the error's own top-level name (`InstructionError`, `BlockhashNotFound`, …).
 */
export function svmErrorName(err: SvmTransactionRecord['err']): string {
  if (err === null) return 'None';
  if (err === 'InsufficientFundsForFee') return 'InsufficientFunds';
  if (typeof err === 'string') return err;
  const instructionError = (err as { InstructionError?: [number, unknown] }).InstructionError;
  if (instructionError) {
    const inner = instructionError[1];
    if (inner === 'InsufficientFunds') return 'InsufficientFunds';
    if (typeof inner === 'object' && inner !== null && (inner as { Custom?: number }).Custom === INSUFFICIENT_FUNDS_CUSTOM_CODE) return 'InsufficientFunds';
  }
  return Object.keys(err)[0] ?? 'TransactionError';
}

/** Errors the failReason table reads by name (`failReasonTable`): the payer's shortfall, an account left below rent exemption. */
const NAMED_ERRORS = new Set(['InsufficientFunds', 'InsufficientFundsForRent']);

/**
 * The failure a failed SVM transaction is recorded with: a shortfall of the payer as the
 * `InsufficientFunds` error (what the failReason table reads as SOLVER_BALANCE_TOO_LOW), an
 * account the transaction would leave below the rent-exempt minimum (a SOL fill too small for a
 * fresh recipient) as `InsufficientFundsForRent` (INSUFFICIENT_FUNDS_FOR_RENT), anything else as
 * its message.
 */
export function svmFailureOf(err: SvmTransactionRecord['err'], message: string): ChainFailure {
  const errorName = svmErrorName(err);
  return NAMED_ERRORS.has(errorName) ? namedFailure(errorName, message) : messageFailure(errorName, message);
}

export function failedSvmSimulation(message: string, err: unknown): FillSimulation {
  return { ok: false, failure: svmFailureOf(err as SvmTransactionRecord['err'], message) };
}

/** Why a mined SVM transaction failed, as the solver records it (SPEC §2.4 failure details). */
export function failedSvmTransactionFacts(record: SvmTransactionRecord): FailedTransactionFacts {
  const message = record.err === null ? 'the transaction succeeded' : describeSvmTransactionError(record.err);
  return {
    callData: { from: record.accountKeys[0]! as string, to: record.accountKeys[record.decoded.message.instructions[0]?.programAddressIndex ?? 0]! as string, data: '0x', value: 0n },
    failure: svmFailureOf(record.err, message),
  };
}
