import { address as toAddress, isAddress, type Address } from '@solana/kit';
import { SvmRpcError } from './svmRpcEncoding';

/** One JSON-RPC method of the node: its positional params in, its result out. */
export type SvmRpcMethod = (params: unknown[]) => unknown;

export function addressParam(value: unknown, name = 'pubkey'): Address {
  if (typeof value !== 'string' || !isAddress(value)) throw new SvmRpcError(-32602, `Invalid param: ${name} ${JSON.stringify(value)} is not a valid address`);
  return toAddress(value);
}

export function configParam(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function u64Param(value: unknown, name: string): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'bigint' && value >= 0n) return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return BigInt(value);
  throw new SvmRpcError(-32602, `Invalid param: ${name} must be a non-negative integer`);
}
