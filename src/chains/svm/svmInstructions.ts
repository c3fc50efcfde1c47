import { getTransferSolInstruction } from '@solana-program/system';
import { getCreateAssociatedTokenIdempotentInstruction, getTransferCheckedInstruction } from '@solana-program/token';
import { AccountRole, address, isSignerRole, isWritableRole, type Address, type Instruction, type TransactionSigner } from '@solana/kit';
import type { Currency } from '../../domain/chain/currency';
import { associatedTokenAccount, MEMO_PROGRAM } from '../../nodes/svm';

/** An instruction as a step item carries it (SPEC §2.2, the official SDK's SVM adapter): account metas, program, data as bare hex. */
export interface SvmStepInstruction {
  keys: Array<{ pubkey: string; isSigner: boolean; isWritable: boolean }>;
  programId: string;
  data: string;
}

/** A Memo v2 instruction carrying `text` (the request id a deposit or a fill names). */
export function memoInstruction(text: string): Instruction {
  return { programAddress: MEMO_PROGRAM, accounts: [], data: new TextEncoder().encode(text) };
}

/**
 * Moves `amount` of `currency` from `from` to the wallet `to`: a System transfer for SOL; for a
 * token, the recipient's associated token account is created if missing (paid by `payer`), then a
 * TransferChecked from the sender's associated token account.
 */
export async function transferInstructions(params: { from: TransactionSigner; to: Address; payer: TransactionSigner; currency: Currency; amount: bigint }): Promise<Instruction[]> {
  const { from, to, payer, currency, amount } = params;
  if (currency.isNative) return [getTransferSolInstruction({ source: from, destination: to, amount })];
  const mint = address(currency.address);
  const [source, destination] = await Promise.all([associatedTokenAccount(from.address, mint), associatedTokenAccount(to, mint)]);
  return [
    getCreateAssociatedTokenIdempotentInstruction({ payer, ata: destination, owner: to, mint }),
    getTransferCheckedInstruction({ source, mint, destination, authority: from, amount, decimals: currency.decimals }),
  ];
}

export function toStepInstruction(instruction: Instruction): SvmStepInstruction {
  return {
    keys: (instruction.accounts ?? []).map((meta) => ({ pubkey: meta.address, isSigner: isSignerRole(meta.role), isWritable: isWritableRole(meta.role) })),
    programId: instruction.programAddress,
    data: Buffer.from(instruction.data ?? new Uint8Array()).toString('hex'),
  };
}

function roleOf(isSigner: boolean, isWritable: boolean): AccountRole {
  if (isSigner) return isWritable ? AccountRole.WRITABLE_SIGNER : AccountRole.READONLY_SIGNER;
  return isWritable ? AccountRole.WRITABLE : AccountRole.READONLY;
}

/** A step item's instruction back into one a transaction message takes (what a wallet adapter does). */
export function fromStepInstruction(step: SvmStepInstruction): Instruction {
  return {
    programAddress: address(step.programId),
    accounts: step.keys.map((key) => ({ address: address(key.pubkey), role: roleOf(key.isSigner, key.isWritable) })),
    data: new Uint8Array(Buffer.from(step.data.replace(/^0x/, ''), 'hex')),
  };
}
