import { BaseError, decodeErrorResult, type Abi, type Hex } from 'viem';
import { contractArtifacts } from '../../../fixtures/contracts/artifacts.generated';
import type { FillSimulation } from '../SolverWallet';
import { revertErrorName, revertLabel, type DecodedRevert } from './decodedRevert';
import type { ChainFailure } from '../../domain/fill/chainFailure';
import { failReasonOfRevert } from './revertFailReason';
import { STANDARD_ERRORS_ABI } from './standardErrorsAbi';

/**
 * Every custom error a fill can revert with that the simulator knows: its own contracts', the
 * fixture contracts' (fixtures/contracts: what integrators' destination calls target) and the
 * standard libraries' (`STANDARD_ERRORS_ABI`). `Error(string)` and `Panic(uint256)` viem adds.
 */
const KNOWN_ERRORS_ABI: Abi = [...Object.values(contractArtifacts).flatMap((artifact): Abi => artifact.abi), ...STANDARD_ERRORS_ABI].filter(
  (item) => item.type === 'error',
);

/** Finds the revert data an RPC error carries, anywhere in viem's cause chain. */
function revertDataOf(error: unknown): Hex | undefined {
  if (!(error instanceof BaseError)) return undefined;
  let found: Hex | undefined;
  error.walk((cause) => {
    const data = (cause as { data?: unknown }).data;
    if (found === undefined && typeof data === 'string' && /^0x[0-9a-fA-F]*$/.test(data)) found = data as Hex;
    const nested = typeof data === 'object' && data !== null ? (data as { data?: unknown }).data : undefined;
    if (found === undefined && typeof nested === 'string' && /^0x[0-9a-fA-F]*$/.test(nested)) found = nested as Hex;
    return false;
  });
  return found;
}

/**
 * A failed simulation when `error` is a genuine revert (with or without data), decoded against
 * the known errors; undefined for anything else (a transport failure, a timeout).
 */
export function decodeRevert(error: unknown): Extract<FillSimulation, { ok: false }> | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const data = revertDataOf(error);
  const reverted = data !== undefined || /revert/i.test(error.details ?? '') || /revert/i.test(error.shortMessage);
  if (!reverted) return undefined;
  return decodeRevertData(data);
}

/** An argument of a decoded error as text (bigints in decimal, nested values as JSON). */
function argText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'bigint' ? inner.toString() : inner));
}

/** What revert data says: a known custom error, a reason string, a panic, unknown data or none. */
export function decodeRevertFacts(data: Hex | undefined): DecodedRevert {
  if (data === undefined || data === '0x') return { kind: 'noData', data: '0x' };
  try {
    const decoded = decodeErrorResult({ abi: KNOWN_ERRORS_ABI, data });
    const args = (decoded.args ?? []) as readonly unknown[];
    if (decoded.errorName === 'Error') return { kind: 'reasonString', reason: argText(args[0]), data };
    if (decoded.errorName === 'Panic') return { kind: 'panic', code: Number(args[0]), data };
    return { kind: 'customError', errorName: decoded.errorName, args: args.map(argText), data };
  } catch {
    return { kind: 'undecoded', data };
  }
}

/**
 * A decoded revert as the chain interface reports a failure: known by its error's name, read in
 * one line (`message` unless given), labelled from the §7.3 table, and shown in status `details` as
 * the decoded revert with its label.
 */
export function revertFailure(revert: DecodedRevert, message = revertLabel(revert)): ChainFailure {
  const failReason = failReasonOfRevert(revert);
  return { errorName: revertErrorName(revert), message, ...(failReason !== undefined ? { failReason } : {}), details: { ...revert, label: revertLabel(revert) } };
}

/** Decodes revert data (from a failed call or a transaction trace) as a failed fill simulation. */
export function decodeRevertData(data: Hex | undefined): Extract<FillSimulation, { ok: false }> {
  const revert = decodeRevertFacts(data);
  const failed = { ok: false as const, failure: revertFailure(revert) };
  if (revert.kind === 'customError' && revert.errorName === 'AccountBlocked') return { ...failed, blockedAccount: revert.args[0] };
  return failed;
}
