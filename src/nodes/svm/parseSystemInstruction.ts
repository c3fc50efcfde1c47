import type { Address } from '@solana/kit';
import { accountAt, SvmInstructionData } from './svmInstructionData';

/** An instruction parsed as a validator's `jsonParsed` shows it: `{ type, info }`. */
export interface ParsedInstructionBody {
  type: string;
  info: Record<string, unknown>;
}

/**
 * A System program instruction as Agave's `parse_system` shows it (types and field names as the
 * validator writes them; lamports and space as numbers). Throws when the data or the accounts do
 * not fit the instruction (the caller shows it partially decoded).
 */
export function parseSystemInstruction(data: Uint8Array, accounts: readonly Address[]): ParsedInstructionBody {
  const read = new SvmInstructionData(data);
  const account = (index: number) => accountAt(accounts, index);
  const kind = read.u32();
  switch (kind) {
    case 0: {
      const lamports = read.u64();
      const space = read.u64();
      return { type: 'createAccount', info: { source: account(0), newAccount: account(1), lamports, space, owner: read.address() } };
    }
    case 1:
      return { type: 'assign', info: { account: account(0), owner: read.address() } };
    case 2:
      return { type: 'transfer', info: { source: account(0), destination: account(1), lamports: read.u64() } };
    case 3: {
      const base = read.address();
      const seed = read.string();
      const lamports = read.u64();
      const space = read.u64();
      return { type: 'createAccountWithSeed', info: { source: account(0), newAccount: account(1), base, seed, lamports, space, owner: read.address() } };
    }
    case 4:
      return { type: 'advanceNonce', info: { nonceAccount: account(0), recentBlockhashesSysvar: account(1), nonceAuthority: account(2) } };
    case 5:
      return { type: 'withdrawFromNonce', info: { nonceAccount: account(0), destination: account(1), recentBlockhashesSysvar: account(2), rentSysvar: account(3), nonceAuthority: account(4), lamports: read.u64() } };
    case 6:
      return { type: 'initializeNonce', info: { nonceAccount: account(0), recentBlockhashesSysvar: account(1), rentSysvar: account(2), nonceAuthority: read.address() } };
    case 7:
      return { type: 'authorizeNonce', info: { nonceAccount: account(0), nonceAuthority: account(1), newAuthorized: read.address() } };
    case 8:
      return { type: 'allocate', info: { account: account(0), space: read.u64() } };
    case 9: {
      const base = read.address();
      const seed = read.string();
      const space = read.u64();
      return { type: 'allocateWithSeed', info: { account: account(0), base, seed, space, owner: read.address() } };
    }
    case 10: {
      const base = read.address();
      const seed = read.string();
      return { type: 'assignWithSeed', info: { account: account(0), base, seed, owner: read.address() } };
    }
    case 11: {
      const lamports = read.u64();
      const sourceSeed = read.string();
      return { type: 'transferWithSeed', info: { source: account(0), sourceBase: account(1), destination: account(2), lamports, sourceSeed, sourceOwner: read.address() } };
    }
    case 12:
      return { type: 'upgradeNonce', info: { nonceAccount: account(0) } };
    default:
      throw new RangeError(`System instruction ${kind} is not one a validator parses`);
  }
}
