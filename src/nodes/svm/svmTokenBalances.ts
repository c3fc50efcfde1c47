import { getAddressDecoder, type Address, type EncodedAccount, type MaybeEncodedAccount } from '@solana/kit';
import { ADDRESS_LOOKUP_TABLE_PROGRAM, LOOKUP_TABLE_META_SIZE, TOKEN_2022_PROGRAM, TOKEN_ACCOUNT_SIZE, TOKEN_PROGRAM } from './svmProgramIds';

/** An SPL token account's contents (mint, owner, amount), read from its data. */
export interface SvmTokenAccount {
  mint: Address;
  owner: Address;
  amount: bigint;
  programId: Address;
}

/** The RPC's `preTokenBalances` / `postTokenBalances` entry and `getTokenAccountBalance` value. */
export interface SvmTokenBalance {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  uiTokenAmount: SvmUiTokenAmount;
}

export interface SvmUiTokenAmount {
  amount: string;
  decimals: number;
  uiAmount: number | null;
  uiAmountString: string;
}

/** Token account data, or undefined when the account is not one (a mint, a wallet, nothing). */
export function readTokenAccount(account: MaybeEncodedAccount): SvmTokenAccount | undefined {
  if (!account.exists) return undefined;
  if (account.programAddress !== TOKEN_PROGRAM && account.programAddress !== TOKEN_2022_PROGRAM) return undefined;
  const data = account.data;
  // a Token-2022 account with extensions is longer and says so in its account-type byte (2 = account)
  if (data.length < TOKEN_ACCOUNT_SIZE || (data.length > TOKEN_ACCOUNT_SIZE && data[TOKEN_ACCOUNT_SIZE] !== 2)) return undefined;
  const addresses = getAddressDecoder();
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return { mint: addresses.decode(data.subarray(0, 32)), owner: addresses.decode(data.subarray(32, 64)), amount: view.getBigUint64(64, true), programId: account.programAddress };
}

/** A mint's decimals (byte 44 of its data). */
export function readMintDecimals(account: MaybeEncodedAccount): number | undefined {
  if (!account.exists || account.data.length < 45) return undefined;
  return account.data[44];
}

export function uiTokenAmount(amount: bigint, decimals: number): SvmUiTokenAmount {
  const whole = amount / 10n ** BigInt(decimals);
  const fraction = (amount % 10n ** BigInt(decimals)).toString().padStart(decimals, '0').replace(/0+$/, '');
  const uiAmountString = fraction ? `${whole}.${fraction}` : `${whole}`;
  return { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString };
}

/** An account LiteSVM listed (`getProgramAccounts`) as the `MaybeEncodedAccount` the readers take. */
export function listedAccount(account: EncodedAccount): MaybeEncodedAccount & { exists: true } {
  return { ...account, exists: true } as MaybeEncodedAccount & { exists: true };
}

/** The token balances among a transaction's account keys (its `pre`/`postTokenBalances`), each with its key's index. */
export function tokenBalancesOf(keys: readonly Address[], accountOf: (address: Address) => MaybeEncodedAccount): SvmTokenBalance[] {
  const balances: SvmTokenBalance[] = [];
  keys.forEach((key, accountIndex) => {
    const token = readTokenAccount(accountOf(key));
    if (!token) return;
    const decimals = readMintDecimals(accountOf(token.mint)) ?? 0;
    balances.push({ accountIndex, mint: token.mint, owner: token.owner, programId: token.programId, uiTokenAmount: uiTokenAmount(token.amount, decimals) });
  });
  return balances;
}

/** The addresses an address lookup table account names (undefined: the account is no lookup table). */
export function lookupTableAddresses(account: MaybeEncodedAccount): Address[] | undefined {
  if (!account.exists || account.programAddress !== ADDRESS_LOOKUP_TABLE_PROGRAM) return undefined;
  const decoder = getAddressDecoder();
  const addresses: Address[] = [];
  for (let at = LOOKUP_TABLE_META_SIZE; at + 32 <= account.data.length; at += 32) addresses.push(decoder.decode(account.data.subarray(at, at + 32)));
  return addresses;
}
