import { BVM_RPC_ERRORS, BvmRpcError } from './bvmRpcError';
import { outputScriptOf } from './bvmCrypto';
import { satsOf } from './bvmRpcEncoding';

/** Positional parameters as Bitcoin Core reads them, with its type errors (-3) and messages. */

export function typeError(value: unknown, expected: string): BvmRpcError {
  const actual = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  return new BvmRpcError(BVM_RPC_ERRORS.type, `JSON value of type ${actual} is not of expected type ${expected}`);
}

export function isAbsent(value: unknown): value is undefined | null {
  return value === undefined || value === null;
}

export function stringParam(params: unknown[], index: number, fallback?: string): string {
  const value = isAbsent(params[index]) ? fallback : params[index];
  if (typeof value !== 'string') throw typeError(value, 'string');
  return value;
}

export function numberParam(params: unknown[], index: number, fallback?: number): number {
  const value = isAbsent(params[index]) ? fallback : params[index];
  if (typeof value !== 'number' || !Number.isInteger(value)) throw typeError(value, 'number');
  return value;
}

export function boolParam(params: unknown[], index: number, fallback: boolean): boolean {
  const value = params[index];
  if (isAbsent(value)) return fallback;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0; // getrawtransaction's verbosity
  throw typeError(value, 'bool');
}

export function objectParam(params: unknown[], index: number): Record<string, unknown> {
  const value = params[index];
  if (isAbsent(value)) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw typeError(value, 'object');
  return value as Record<string, unknown>;
}

export function hashParam(params: unknown[], index: number, name: string): string {
  const value = stringParam(params, index);
  if (!/^[0-9a-fA-F]{64}$/.test(value)) throw new BvmRpcError(BVM_RPC_ERRORS.invalidParameter, `${name} must be of length 64 (not ${value.length}, for '${value}')`);
  return value.toLowerCase();
}

export function scriptOfAddress(address: string): Uint8Array {
  const script = outputScriptOf(address);
  if (!script) throw new BvmRpcError(BVM_RPC_ERRORS.invalidAddressOrKey, `Invalid Bitcoin address: ${address}`);
  return script;
}

/** A BTC amount parameter in satoshis: a positive number or decimal string ("Invalid amount" / "Amount out of range" as Core). */
export function amountParam(value: unknown): bigint {
  if (typeof value !== 'number' && typeof value !== 'string') throw new BvmRpcError(BVM_RPC_ERRORS.type, 'Amount is not a number or string');
  if (typeof value === 'number' && value < 0) throw new BvmRpcError(BVM_RPC_ERRORS.type, 'Amount out of range');
  const sats = satsOf(value);
  if (sats === undefined) throw new BvmRpcError(BVM_RPC_ERRORS.type, 'Invalid amount');
  return sats;
}
