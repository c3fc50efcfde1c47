import type { SvmCompiledMessage } from './decodeSvmTransaction';

/** Lamports per signature: the base fee of every Solana cluster (and LiteSVM's). */
export const LAMPORTS_PER_SIGNATURE = 5000n;
const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111';
const DEFAULT_UNITS_PER_INSTRUCTION = 200_000n;
const MAX_UNITS = 1_400_000n;

/**
 * What a message pays: the base fee per signature plus the priority fee its compute-budget
 * instructions ask for (SetComputeUnitPrice × the unit limit, micro-lamports rounded up), as the
 * runtime charges it.
 */
export function svmTransactionFee(message: Pick<SvmCompiledMessage, 'header' | 'instructions' | 'staticAccounts'>): bigint {
  const base = LAMPORTS_PER_SIGNATURE * BigInt(message.header.numSignerAccounts);
  let microLamportsPerUnit = 0n;
  let unitLimit: bigint | undefined;
  let otherInstructions = 0n;
  for (const instruction of message.instructions) {
    const program = message.staticAccounts[instruction.programAddressIndex];
    const data = instruction.data;
    if (program !== COMPUTE_BUDGET_PROGRAM || !data || data.length === 0) {
      otherInstructions++;
      continue;
    }
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    if (data[0] === 2 && data.length >= 5) unitLimit = BigInt(view.getUint32(1, true));
    if (data[0] === 3 && data.length >= 9) microLamportsPerUnit = view.getBigUint64(1, true);
  }
  const units = unitLimit ?? (otherInstructions * DEFAULT_UNITS_PER_INSTRUCTION > MAX_UNITS ? MAX_UNITS : otherInstructions * DEFAULT_UNITS_PER_INSTRUCTION);
  const priority = (microLamportsPerUnit * units + 999_999n) / 1_000_000n;
  return base + priority;
}
