import { getMintDecoder, getTokenDecoder } from '@solana-program/token';
import { getAddressDecoder, isSome, type Address, type MaybeEncodedAccount, type Option } from '@solana/kit';
import { readMintDecimals, readTokenAccount, uiTokenAmount } from './svmTokenBalances';
import { MINT_SIZE, SYSTEM_PROGRAM, TOKEN_2022_PROGRAM, TOKEN_ACCOUNT_SIZE, TOKEN_PROGRAM } from './svmProgramIds';

/** A System account holding a durable nonce (version, state, authority, blockhash, fee calculator). */
const NONCE_ACCOUNT_SIZE = 80;
const TOKEN_ACCOUNT_STATES = ['uninitialized', 'initialized', 'frozen'] as const;

const optional = (value: Option<Address>) => (isSome(value) ? value.value : null);

/**
 * An account's data as `jsonParsed` shows it, where a validator parses it: SPL Token and Token-2022
 * token accounts and mints (`spl-token` / `spl-token-2022`), and System accounts holding a durable
 * nonce (`nonce`). Undefined for any other account (a wallet's empty data, a program's): the caller
 * answers base64 then, as a validator does.
 */
export function parseAccountData(account: MaybeEncodedAccount & { exists: true }, read: (address: Address) => MaybeEncodedAccount) {
  if (account.programAddress === SYSTEM_PROGRAM) return parseNonce(account.data);
  const program = account.programAddress === TOKEN_PROGRAM ? 'spl-token' : account.programAddress === TOKEN_2022_PROGRAM ? 'spl-token-2022' : undefined;
  if (!program) return undefined;
  const space = account.data.length;
  if (readTokenAccount(account)) {
    const token = getTokenDecoder().decode(account.data.subarray(0, TOKEN_ACCOUNT_SIZE));
    const decimals = readMintDecimals(read(token.mint)) ?? 0;
    const delegate = optional(token.delegate);
    const closeAuthority = optional(token.closeAuthority);
    const info = {
      isNative: isSome(token.isNative),
      mint: token.mint,
      owner: token.owner,
      state: TOKEN_ACCOUNT_STATES[token.state] ?? 'initialized',
      tokenAmount: uiTokenAmount(token.amount, decimals),
      ...(delegate ? { delegate, delegatedAmount: uiTokenAmount(token.delegatedAmount, decimals) } : {}),
      ...(isSome(token.isNative) ? { rentExemptReserve: uiTokenAmount(token.isNative.value, decimals) } : {}),
      ...(closeAuthority ? { closeAuthority } : {}),
    };
    return { program, parsed: { type: 'account', info }, space };
  }
  if (space === MINT_SIZE || (space > TOKEN_ACCOUNT_SIZE && account.data[TOKEN_ACCOUNT_SIZE] === 1)) {
    const mint = getMintDecoder().decode(account.data.subarray(0, MINT_SIZE));
    const info = { decimals: mint.decimals, freezeAuthority: optional(mint.freezeAuthority), isInitialized: mint.isInitialized, mintAuthority: optional(mint.mintAuthority), supply: mint.supply.toString() };
    return { program, parsed: { type: 'mint', info }, space };
  }
  return undefined;
}

/** Agave's `parse_nonce`: an 80-byte System account, `uninitialized` or `initialized` with its authority and blockhash. */
function parseNonce(data: Uint8Array) {
  if (data.length !== NONCE_ACCOUNT_SIZE) return undefined;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const state = view.getUint32(4, true);
  if (state === 0) return { program: 'nonce', parsed: { type: 'uninitialized' }, space: data.length };
  if (state !== 1) return undefined;
  const addresses = getAddressDecoder();
  const info = { authority: addresses.decode(data.subarray(8, 40)), blockhash: addresses.decode(data.subarray(40, 72)), feeCalculator: { lamportsPerSignature: view.getBigUint64(72, true).toString() } };
  return { program: 'nonce', parsed: { type: 'initialized', info }, space: data.length };
}
