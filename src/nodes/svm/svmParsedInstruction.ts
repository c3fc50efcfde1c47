import { address, getBase58Decoder, type Address } from '@solana/kit';
import { parseSystemInstruction, type ParsedInstructionBody } from './parseSystemInstruction';
import { parseTokenInstruction } from './parseTokenInstruction';
import { accountAt } from './svmInstructionData';
import { ASSOCIATED_TOKEN_PROGRAM, MEMO_PROGRAM, SYSTEM_PROGRAM, TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from './svmProgramIds';

/** SPL Memo v1, parsed as v2 is (validators know both). */
const MEMO_V1_PROGRAM = address('Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo');

/** A `jsonParsed` instruction: parsed (`program`, `parsed`) or, for a program a validator does not parse, partially decoded. */
export type SvmUiInstruction =
  | { program: string; programId: Address; parsed: ParsedInstructionBody | string; stackHeight: number | null }
  | { programId: Address; accounts: Address[]; data: string; stackHeight: number | null };

interface InstructionParser {
  program: string;
  parse: (data: Uint8Array, accounts: readonly Address[]) => ParsedInstructionBody | string;
}

const PARSERS = new Map<string, InstructionParser>([
  [SYSTEM_PROGRAM, { program: 'system', parse: parseSystemInstruction }],
  [TOKEN_PROGRAM, { program: 'spl-token', parse: parseTokenInstruction }],
  [TOKEN_2022_PROGRAM, { program: 'spl-token-2022', parse: parseTokenInstruction }],
  [ASSOCIATED_TOKEN_PROGRAM, { program: 'spl-associated-token-account', parse: parseAssociatedTokenInstruction }],
  [MEMO_PROGRAM, { program: 'spl-memo', parse: parseMemo }],
  [MEMO_V1_PROGRAM, { program: 'spl-memo', parse: parseMemo }],
]);

/**
 * One instruction as a validator's `jsonParsed` encoding shows it: System, SPL Token, Token-2022,
 * Associated Token Account and Memo instructions parsed (`{ program, programId, parsed }`; a memo's
 * `parsed` is its text), any other program's — or one that does not fit its program's layout —
 * partially decoded (`{ programId, accounts, data }`, data in base58).
 */
export function parseSvmInstruction(programId: Address, accounts: readonly Address[], data: Uint8Array, stackHeight: number | null = null): SvmUiInstruction {
  const parser = PARSERS.get(programId);
  if (parser) {
    try {
      return { program: parser.program, programId, parsed: parser.parse(data, accounts), stackHeight };
    } catch {
      // not an instruction the validator parses: partially decoded below
    }
  }
  return { programId, accounts: [...accounts], data: getBase58Decoder().decode(data), stackHeight };
}

/** Agave's `parse_associated_token`: `create` (empty data or 0), `createIdempotent` (1), `recoverNested` (2). */
function parseAssociatedTokenInstruction(data: Uint8Array, accounts: readonly Address[]): ParsedInstructionBody {
  const account = (index: number) => accountAt(accounts, index);
  const kind = data.length === 0 ? 0 : data[0];
  if (data.length > 1) throw new RangeError('associated token instruction data too long');
  if (kind === 0 || kind === 1) {
    return { type: kind === 0 ? 'create' : 'createIdempotent', info: { source: account(0), account: account(1), wallet: account(2), mint: account(3), systemProgram: account(4), tokenProgram: account(5) } };
  }
  if (kind === 2) {
    return { type: 'recoverNested', info: { nestedSource: account(0), nestedMint: account(1), destination: account(2), nestedOwner: account(3), ownerMint: account(4), wallet: account(5), tokenProgram: account(6) } };
  }
  throw new RangeError(`associated token instruction ${String(kind)} is unknown`);
}

/** A memo is its UTF-8 text (invalid UTF-8: not parsed). */
function parseMemo(data: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: true }).decode(data);
}
