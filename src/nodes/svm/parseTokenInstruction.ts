import type { Address } from '@solana/kit';
import type { ParsedInstructionBody } from './parseSystemInstruction';
import { accountAt, SvmInstructionData } from './svmInstructionData';
import { uiTokenAmount } from './svmTokenBalances';

/** `SetAuthority`'s authority types, as Agave names them (index = the byte in the data). */
const AUTHORITY_TYPES = ['mintTokens', 'freezeAccount', 'accountOwner', 'closeAccount'] as const;

/**
 * An SPL Token or Token-2022 instruction (the 25 the two programs share) as Agave's `parse_token`
 * shows it: amounts as strings, checked amounts as `tokenAmount` objects, and a multisig
 * authority as `multisig<Role>` plus `signers`. Throws when the instruction is not one of them or
 * does not fit (the caller shows it partially decoded, as a validator does).
 */
export function parseTokenInstruction(data: Uint8Array, accounts: readonly Address[]): ParsedInstructionBody {
  const read = new SvmInstructionData(data);
  const account = (index: number) => accountAt(accounts, index);
  // the authority at `index`: one signer, or a multisig followed by its signers
  const authority = (index: number, role: string, multisigRole: string) => {
    accountAt(accounts, index);
    return accounts.length > index + 1 ? { [multisigRole]: account(index), signers: accounts.slice(index + 1) } : { [role]: account(index) };
  };
  const tokenAmount = () => {
    const amount = read.u64();
    return uiTokenAmount(amount, read.u8());
  };
  const kind = read.u8();
  switch (kind) {
    case 0:
    case 20: {
      const decimals = read.u8();
      const mintAuthority = read.address();
      const freezeAuthority = read.optionalAddress();
      const info = { mint: account(0), decimals, mintAuthority, ...(kind === 0 ? { rentSysvar: account(1) } : {}), ...(freezeAuthority ? { freezeAuthority } : {}) };
      return { type: kind === 0 ? 'initializeMint' : 'initializeMint2', info };
    }
    case 1:
      return { type: 'initializeAccount', info: { account: account(0), mint: account(1), owner: account(2), rentSysvar: account(3) } };
    case 2:
    case 19: {
      const m = read.u8();
      const first = kind === 2 ? 2 : 1;
      accountAt(accounts, first);
      return { type: kind === 2 ? 'initializeMultisig' : 'initializeMultisig2', info: { multisig: account(0), ...(kind === 2 ? { rentSysvar: account(1) } : {}), signers: accounts.slice(first), m } };
    }
    case 3:
      return { type: 'transfer', info: { source: account(0), destination: account(1), amount: read.u64().toString(), ...authority(2, 'authority', 'multisigAuthority') } };
    case 4:
      return { type: 'approve', info: { source: account(0), delegate: account(1), amount: read.u64().toString(), ...authority(2, 'owner', 'multisigOwner') } };
    case 5:
      return { type: 'revoke', info: { source: account(0), ...authority(1, 'owner', 'multisigOwner') } };
    case 6: {
      const authorityType = AUTHORITY_TYPES[read.u8()];
      if (!authorityType) throw new RangeError('unknown authority type');
      const owned = authorityType === 'mintTokens' || authorityType === 'freezeAccount' ? 'mint' : 'account';
      return { type: 'setAuthority', info: { [owned]: account(0), authorityType, newAuthority: read.optionalAddress(), ...authority(1, 'authority', 'multisigAuthority') } };
    }
    case 7:
      return { type: 'mintTo', info: { mint: account(0), account: account(1), amount: read.u64().toString(), ...authority(2, 'mintAuthority', 'multisigMintAuthority') } };
    case 8:
      return { type: 'burn', info: { account: account(0), mint: account(1), amount: read.u64().toString(), ...authority(2, 'authority', 'multisigAuthority') } };
    case 9:
      return { type: 'closeAccount', info: { account: account(0), destination: account(1), ...authority(2, 'owner', 'multisigOwner') } };
    case 10:
    case 11:
      return { type: kind === 10 ? 'freezeAccount' : 'thawAccount', info: { account: account(0), mint: account(1), ...authority(2, 'freezeAuthority', 'multisigFreezeAuthority') } };
    case 12:
      return { type: 'transferChecked', info: { source: account(0), mint: account(1), destination: account(2), tokenAmount: tokenAmount(), ...authority(3, 'authority', 'multisigAuthority') } };
    case 13:
      return { type: 'approveChecked', info: { source: account(0), mint: account(1), delegate: account(2), tokenAmount: tokenAmount(), ...authority(3, 'owner', 'multisigOwner') } };
    case 14:
      return { type: 'mintToChecked', info: { mint: account(0), account: account(1), tokenAmount: tokenAmount(), ...authority(2, 'mintAuthority', 'multisigMintAuthority') } };
    case 15:
      return { type: 'burnChecked', info: { account: account(0), mint: account(1), tokenAmount: tokenAmount(), ...authority(2, 'authority', 'multisigAuthority') } };
    case 16:
      return { type: 'initializeAccount2', info: { account: account(0), mint: account(1), owner: read.address(), rentSysvar: account(2) } };
    case 17:
      return { type: 'syncNative', info: { account: account(0) } };
    case 18:
      return { type: 'initializeAccount3', info: { account: account(0), mint: account(1), owner: read.address() } };
    case 21:
      return { type: 'getAccountDataSize', info: { mint: account(0) } };
    case 22:
      return { type: 'initializeImmutableOwner', info: { account: account(0) } };
    case 23:
      return { type: 'amountToUiAmount', info: { mint: account(0), amount: read.u64().toString() } };
    case 24:
      return { type: 'uiAmountToAmount', info: { mint: account(0), uiAmount: new TextDecoder('utf-8', { fatal: true }).decode(read.rest()) } };
    default:
      throw new RangeError(`token instruction ${kind} is not one this node parses`);
  }
}
