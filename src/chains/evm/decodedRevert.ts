import type { Hex } from 'viem';

/**
 * What a revert's data says once decoded (SPEC §2.4 `details`: "decoded revert data"). JSON-safe:
 * it is kept on the request record and shown in status `details` as it is.
 */
export type DecodedRevert =
  /** A custom error found in a known ABI; `args` rendered as strings (addresses checksummed). */
  | { kind: 'customError'; errorName: string; args: string[]; data: Hex }
  /** Solidity's `Error(string)` (require / revert with a message). */
  | { kind: 'reasonString'; reason: string; data: Hex }
  /** Solidity's `Panic(uint256)` (assert, arithmetic, division by zero, …). */
  | { kind: 'panic'; code: number; data: Hex }
  /** Data that matches no known error. */
  | { kind: 'undecoded'; data: Hex }
  /** The revert carried no data at all. */
  | { kind: 'noData'; data: '0x' };

/** Solidity's panic codes, as the compiler documents them. */
const PANIC_MEANINGS: Readonly<Record<number, string>> = {
  0x00: 'generic compiler panic',
  0x01: 'assertion failed',
  0x11: 'arithmetic underflow or overflow',
  0x12: 'division or modulo by zero',
  0x21: 'invalid enum value',
  0x22: 'invalid storage byte array',
  0x31: 'pop on an empty array',
  0x32: 'array index out of bounds',
  0x41: 'out of memory',
  0x51: 'call to an uninitialised function',
};

/** A one-line reading of a decoded revert: `MintNotActive()`, `Error("…")`, `Panic(0x11: …)`. */
export function revertLabel(revert: DecodedRevert): string {
  switch (revert.kind) {
    case 'customError':
      return `${revert.errorName}(${revert.args.join(', ')})`;
    case 'reasonString':
      return `Error(${JSON.stringify(revert.reason)})`;
    case 'panic':
      return `Panic(0x${revert.code.toString(16).padStart(2, '0')}: ${PANIC_MEANINGS[revert.code] ?? 'unknown panic code'})`;
    case 'undecoded':
      return `unknown error ${revert.data.slice(0, 10)}`;
    case 'noData':
      return 'no revert data';
  }
}

/** The error name a revert is known by: the custom error's, `Error`, `Panic`, or `Reverted`. */
export function revertErrorName(revert: DecodedRevert): string {
  switch (revert.kind) {
    case 'customError':
      return revert.errorName;
    case 'reasonString':
      return 'Error';
    case 'panic':
      return 'Panic';
    default:
      return 'Reverted';
  }
}
