import { BaseError, decodeErrorResult, type Abi, type Hex } from 'viem';
import {
  constantProductPoolArtifact,
  serviceReceiverArtifact,
  stablecoinArtifact,
  wrappedNativeArtifact,
} from '../../../fixtures/contracts/artifacts.generated';
import type { FillSimulation } from '../ChainAdapter';

/** Every custom error a fill can revert with, from the simulator's contracts. */
const FILL_ERRORS_ABI = [
  ...serviceReceiverArtifact.abi,
  ...stablecoinArtifact.abi,
  ...wrappedNativeArtifact.abi,
  ...constantProductPoolArtifact.abi,
].filter((item) => item.type === 'error') as Abi;

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
 * the simulator's contracts; undefined for anything else (a transport failure, a timeout).
 */
export function decodeRevert(error: unknown): Extract<FillSimulation, { ok: false }> | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const data = revertDataOf(error);
  const reverted = data !== undefined || /revert/i.test(error.details ?? '') || /revert/i.test(error.shortMessage);
  if (!reverted) return undefined;
  return decodeRevertData(data);
}

/** Decodes revert data (from a failed call or a transaction trace) against the simulator's contracts. */
export function decodeRevertData(data: Hex | undefined): Extract<FillSimulation, { ok: false }> {
  if (data === undefined || data === '0x') return { ok: false, errorName: 'Reverted', message: 'execution reverted without data' };
  try {
    const decoded = decodeErrorResult({ abi: FILL_ERRORS_ABI, data });
    const args = (decoded.args ?? []) as readonly unknown[];
    const message = `${decoded.errorName}(${args.map(String).join(', ')})`;
    if (decoded.errorName === 'AccountBlocked') return { ok: false, errorName: decoded.errorName, message, blockedAccount: String(args[0]) };
    return { ok: false, errorName: decoded.errorName, message };
  } catch {
    return { ok: false, errorName: 'Reverted', message: `execution reverted with data ${data}` };
  }
}
