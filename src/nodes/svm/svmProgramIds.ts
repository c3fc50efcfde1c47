import { address } from '@solana/kit';

/** The programs and well-known accounts the SVM chain uses (preloaded by LiteSVM and by solana-test-validator). */
export const SYSTEM_PROGRAM = address('11111111111111111111111111111111');
export const TOKEN_PROGRAM = address('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
export const TOKEN_2022_PROGRAM = address('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb');
export const ASSOCIATED_TOKEN_PROGRAM = address('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL');
export const MEMO_PROGRAM = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
export const ADDRESS_LOOKUP_TABLE_PROGRAM = address('AddressLookupTab1e1111111111111111111111111');
/** Wrapped SOL: the SPL Token program's native mint. */
export const NATIVE_MINT = address('So11111111111111111111111111111111111111112');

/** Bytes before the first address in a lookup table account. */
export const LOOKUP_TABLE_META_SIZE = 56;
/** SPL Token account and mint layouts (the parts read here). */
export const TOKEN_ACCOUNT_SIZE = 165;
export const MINT_SIZE = 82;
