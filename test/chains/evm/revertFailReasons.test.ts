// covers: failReason:MINT_NOT_ACTIVE, failReason:MINT_QUANTITY_EXCEEDS_MAX_SUPPLY, failReason:MINT_QUANTITY_EXCEEDS_MAX_PER_WALLET, failReason:INCORRECT_PAYMENT, failReason:ERC_1155_TOO_MANY_REQUESTED
// covers: failReason:ORDER_EXPIRED, failReason:ORDER_IS_CANCELLED, failReason:ORDER_ALREADY_FILLED, failReason:MARKETPLACE_INEXACT_FRACTION, failReason:MARKETPLACE_INVALID_FULFILLER, failReason:INSUFFICIENT_NATIVE_TOKENS_SUPPLIED
// covers: failReason:INVALID_SIGNATURE, failReason:INVALID_SIGNER, failReason:SIGNATURE_EXPIRED, failReason:INVALID_NONCE, failReason:INVALID_GAS_PRICE, failReason:INVALID_SENDER
// covers: failReason:CONTRACT_PAUSED, failReason:TOKEN_NOT_TRANSFERABLE, failReason:TRANSFER_AMOUNT_EXCEEDS_ALLOWANCE, failReason:TRANSFER_AMOUNT_EXCEEDS_BALANCE, failReason:TRANSFER_FROM_FAILED, failReason:TRANSFER_FAILED
// covers: failReason:ACCOUNT_ABSTRACTION_INVALID_NONCE, failReason:ACCOUNT_ABSTRACTION_SIGNATURE_ERROR, failReason:ACCOUNT_ABSTRACTION_GAS_LIMIT
// covers: failReason:PROTOCOL_DEADLINE_EXPIRED, failReason:SWAP_IMPACT_TOO_HIGH, failReason:ZERO_SELL_AMOUNT, failReason:INSUFFICIENT_POOL_LIQUIDITY, failReason:PROTOCOL_DEX_ERROR
// covers: failReason:SOLVER_BALANCE_TOO_LOW, failReason:TOO_LITTLE_RECEIVED, failReason:DESTINATION_TOKEN_TRANSFER_REJECTED, failReason:MISSING_REVERT_DATA, failReason:EXECUTION_REVERTED, failReason:TRANSACTION_REVERTED
import { describe, expect, it } from 'vitest';
import type { DecodedRevert } from '../../../src/chains/evm/decodedRevert';
import { revertLabel } from '../../../src/chains/evm/decodedRevert';
import { revertFailure } from '../../../src/chains/evm/decodeRevert';
import { revertedFillReason } from '../../../src/domain/fill/fillFailReason';
import { failReasonOfRevert } from '../../../src/chains/evm/revertFailReason';
import { messageFailure, namedFailure } from '../../../src/domain/fill/chainFailure';
import type { FailReason } from '../../../src/domain/request/requestStatus';
import { makeRequestRecord } from '../../support/requestRecordFixture';

const error = (errorName: string, ...args: string[]): DecodedRevert => ({ kind: 'customError', errorName, args, data: '0x12345678' });
const reason = (text: string): DecodedRevert => ({ kind: 'reasonString', reason: text, data: '0x08c379a0' });

describe('failReasonOfRevert: decoded revert → SPEC §7.3', () => {
  const cases: Array<[string, DecodedRevert, FailReason]> = [
    // the simulator's own contracts keep their reasons
    ['the solver short of tokens', error('InsufficientBalance'), 'SOLVER_BALANCE_TOO_LOW'],
    ['the solver short of native', error('InsufficientFunds'), 'SOLVER_BALANCE_TOO_LOW'],
    ['the fill floor', error('TooLittleReceived', '1', '2'), 'TOO_LITTLE_RECEIVED'],
    ['an exact-output swap costing more', error('TooMuchRequested', '3', '2'), 'TOO_LITTLE_RECEIVED'],
    ['a blocked recipient', error('AccountBlocked', '0x00000000000000000000000000000000000b10cc'), 'DESTINATION_TOKEN_TRANSFER_REJECTED'],
    ['a call of the fill reverting without data', error('CallFailed', '0'), 'MISSING_REVERT_DATA'],
    // mints
    ['MintNotActive()', error('MintNotActive'), 'MINT_NOT_ACTIVE'],
    ['"Mint not active"', reason('Mint not active'), 'MINT_NOT_ACTIVE'],
    ['"Sale is not live"', reason('Sale is not live'), 'MINT_NOT_ACTIVE'],
    ['SeaDrop NotActive', error('NotActive', '1', '2', '3'), 'MINT_NOT_ACTIVE'],
    ['MintQuantityExceedsMaxSupply', error('MintQuantityExceedsMaxSupply', '11', '10'), 'MINT_QUANTITY_EXCEEDS_MAX_SUPPLY'],
    ['"Exceeds max supply"', reason('Exceeds max supply'), 'MINT_QUANTITY_EXCEEDS_MAX_SUPPLY'],
    ['MintQuantityExceedsMaxPerWallet', error('MintQuantityExceedsMaxPerWallet', '3', '2'), 'MINT_QUANTITY_EXCEEDS_MAX_PER_WALLET'],
    ['SeaDrop per-wallet', error('MintQuantityExceedsMaxMintedPerWallet', '3', '2'), 'MINT_QUANTITY_EXCEEDS_MAX_PER_WALLET'],
    ['"Exceeds max per wallet"', reason('Exceeds max per wallet'), 'MINT_QUANTITY_EXCEEDS_MAX_PER_WALLET'],
    ['IncorrectPayment', error('IncorrectPayment', '1', '2'), 'INCORRECT_PAYMENT'],
    ['"Incorrect ETH value sent"', reason('Incorrect ETH value sent'), 'INCORRECT_PAYMENT'],
    ['TooManyRequested', error('TooManyRequested', '5', '2'), 'ERC_1155_TOO_MANY_REQUESTED'],
    ['"Too many requested"', reason('ERC1155: too many requested'), 'ERC_1155_TOO_MANY_REQUESTED'],
    // marketplaces
    ['InvalidTime', error('InvalidTime', '0', '1'), 'ORDER_EXPIRED'],
    ['"Order expired"', reason('Order expired'), 'ORDER_EXPIRED'],
    ['OrderIsCancelled', error('OrderIsCancelled', '0xab'), 'ORDER_IS_CANCELLED'],
    ['"Order cancelled"', reason('Order cancelled'), 'ORDER_IS_CANCELLED'],
    ['OrderAlreadyFilled', error('OrderAlreadyFilled', '0xab'), 'ORDER_ALREADY_FILLED'],
    ['InexactFraction', error('InexactFraction'), 'MARKETPLACE_INEXACT_FRACTION'],
    ['InvalidFulfiller', error('InvalidFulfiller', '0x1', '0x2', '0xab'), 'MARKETPLACE_INVALID_FULFILLER'],
    ['InsufficientNativeTokensSupplied', error('InsufficientNativeTokensSupplied'), 'INSUFFICIENT_NATIVE_TOKENS_SUPPLIED'],
    ['InvalidSignature', error('InvalidSignature'), 'INVALID_SIGNATURE'],
    ['InvalidSigner', error('InvalidSigner'), 'INVALID_SIGNER'],
    // pausing and soulbound tokens
    ['OpenZeppelin v5 EnforcedPause', error('EnforcedPause'), 'CONTRACT_PAUSED'],
    ['OpenZeppelin v4 "Pausable: paused"', reason('Pausable: paused'), 'CONTRACT_PAUSED'],
    ['TokenNotTransferable', error('TokenNotTransferable', '1'), 'TOKEN_NOT_TRANSFERABLE'],
    ['"Soulbound: token is not transferable"', reason('Soulbound: token is not transferable'), 'TOKEN_NOT_TRANSFERABLE'],
    // ERC-20 (OpenZeppelin v5 errors and v4 strings, TransferHelper, Solady)
    ['ERC20InsufficientAllowance', error('ERC20InsufficientAllowance', '0x1', '0', '5'), 'TRANSFER_AMOUNT_EXCEEDS_ALLOWANCE'],
    ['"ERC20: insufficient allowance"', reason('ERC20: insufficient allowance'), 'TRANSFER_AMOUNT_EXCEEDS_ALLOWANCE'],
    ['"ERC20: transfer amount exceeds allowance"', reason('ERC20: transfer amount exceeds allowance'), 'TRANSFER_AMOUNT_EXCEEDS_ALLOWANCE'],
    ['ERC20InsufficientBalance', error('ERC20InsufficientBalance', '0x1', '0', '5'), 'TRANSFER_AMOUNT_EXCEEDS_BALANCE'],
    ['"ERC20: transfer amount exceeds balance"', reason('ERC20: transfer amount exceeds balance'), 'TRANSFER_AMOUNT_EXCEEDS_BALANCE'],
    ['ERC20InvalidSender', error('ERC20InvalidSender', '0x0000000000000000000000000000000000000000'), 'INVALID_SENDER'],
    ['"ERC20: transfer from the zero address"', reason('ERC20: transfer from the zero address'), 'INVALID_SENDER'],
    ['"TransferHelper: TRANSFER_FROM_FAILED"', reason('TransferHelper: TRANSFER_FROM_FAILED'), 'TRANSFER_FROM_FAILED'],
    ['Uniswap V3 "STF"', reason('STF'), 'TRANSFER_FROM_FAILED'],
    ['Solady TransferFromFailed', error('TransferFromFailed'), 'TRANSFER_FROM_FAILED'],
    ['"TransferHelper: TRANSFER_FAILED"', reason('TransferHelper: TRANSFER_FAILED'), 'TRANSFER_FAILED'],
    ['SafeERC20FailedOperation', error('SafeERC20FailedOperation', '0x1'), 'TRANSFER_FAILED'],
    // signatures and nonces
    ['ERC2612ExpiredSignature', error('ERC2612ExpiredSignature', '1'), 'SIGNATURE_EXPIRED'],
    ['"ERC20Permit: expired deadline"', reason('ERC20Permit: expired deadline'), 'SIGNATURE_EXPIRED'],
    ['Permit2 SignatureExpired', error('SignatureExpired', '1'), 'SIGNATURE_EXPIRED'],
    ['ERC2612InvalidSigner', error('ERC2612InvalidSigner', '0x1', '0x2'), 'INVALID_SIGNER'],
    ['"ERC20Permit: invalid signature"', reason('ERC20Permit: invalid signature'), 'INVALID_SIGNATURE'],
    ['ECDSAInvalidSignature', error('ECDSAInvalidSignature'), 'INVALID_SIGNATURE'],
    ['"ECDSA: invalid signature"', reason('ECDSA: invalid signature'), 'INVALID_SIGNATURE'],
    ['InvalidAccountNonce', error('InvalidAccountNonce', '0x1', '4'), 'INVALID_NONCE'],
    ['Permit2 InvalidNonce', error('InvalidNonce'), 'INVALID_NONCE'],
    ['"FiatTokenV2: authorization is used or canceled"', reason('FiatTokenV2: authorization is used or canceled'), 'INVALID_NONCE'],
    ['"Invalid gas price"', reason('Invalid gas price'), 'INVALID_GAS_PRICE'],
    // account abstraction (FailedOp carries the entry point's reason code)
    ['AA25', error('FailedOp', '0', 'AA25 invalid account nonce'), 'ACCOUNT_ABSTRACTION_INVALID_NONCE'],
    ['AA24', error('FailedOp', '0', 'AA24 signature error'), 'ACCOUNT_ABSTRACTION_SIGNATURE_ERROR'],
    ['AA95', error('FailedOp', '0', 'AA95 out of gas'), 'ACCOUNT_ABSTRACTION_GAS_LIMIT'],
    ['AA40', error('FailedOp', '1', 'AA40 over verificationGasLimit'), 'ACCOUNT_ABSTRACTION_GAS_LIMIT'],
    // DEX routers
    ['"DexRouter: EXPIRED"', reason('DexRouter: EXPIRED'), 'PROTOCOL_DEADLINE_EXPIRED'],
    ['Uniswap V3 "Transaction too old"', reason('Transaction too old'), 'PROTOCOL_DEADLINE_EXPIRED'],
    ['TransactionDeadlinePassed', error('TransactionDeadlinePassed'), 'PROTOCOL_DEADLINE_EXPIRED'],
    ['"DexRouter: INSUFFICIENT_OUTPUT_AMOUNT"', reason('DexRouter: INSUFFICIENT_OUTPUT_AMOUNT'), 'SWAP_IMPACT_TOO_HIGH'],
    ['Uniswap V3 "Too little received"', reason('Too little received'), 'SWAP_IMPACT_TOO_HIGH'],
    ['V2TooLittleReceived', error('V2TooLittleReceived'), 'SWAP_IMPACT_TOO_HIGH'],
    ['"DexRouter: INSUFFICIENT_INPUT_AMOUNT"', reason('DexRouter: INSUFFICIENT_INPUT_AMOUNT'), 'ZERO_SELL_AMOUNT'],
    ['ZeroSellAmount', error('ZeroSellAmount'), 'ZERO_SELL_AMOUNT'],
    ['"UniswapV2Library: INSUFFICIENT_LIQUIDITY"', reason('UniswapV2Library: INSUFFICIENT_LIQUIDITY'), 'INSUFFICIENT_POOL_LIQUIDITY'],
    ['the pool’s InsufficientLiquidity', error('InsufficientLiquidity'), 'INSUFFICIENT_POOL_LIQUIDITY'],
    ['another router reason', reason('UniswapV2: K'), 'PROTOCOL_DEX_ERROR'],
    ['"DexRouter: FORBIDDEN"', reason('DexRouter: FORBIDDEN'), 'PROTOCOL_DEX_ERROR'],
    // no data at all
    ['a revert without data', { kind: 'noData', data: '0x' }, 'MISSING_REVERT_DATA'],
  ];
  it.each(cases)('%s', (_label, revert, expected) => {
    expect(failReasonOfRevert(revert)).toBe(expected);
  });

  it('leaves unknown errors, unknown strings, panics and undecodable data to the fallback', () => {
    for (const revert of [
      error('Refused', '7'),
      error('NativeTransferFailed'),
      reason('something went wrong'),
      { kind: 'panic', code: 0x11, data: '0x4e487b71' },
      { kind: 'undecoded', data: '0xdeadbeef' },
    ] as DecodedRevert[]) {
      expect(failReasonOfRevert(revert)).toBeUndefined();
    }
  });
});

describe('revertedFillReason: the table, then the fallback by request type (SPEC §7.2)', () => {
  const record = (requestType: 'Call' | 'Same-chain Swap') => {
    const base = makeRequestRecord();
    return { ...base, quote: { ...base.quote, requestType } };
  };
  it('a known revert gets its label whatever the request type', () => {
    expect(revertedFillReason(record('Call'), revertFailure(error('MintNotActive')))).toBe('MINT_NOT_ACTIVE');
    expect(revertedFillReason(record('Same-chain Swap'), revertFailure(error('TooLittleReceived', '1', '2')))).toBe('TOO_LITTLE_RECEIVED');
  });
  it('an unknown one (or none read) is EXECUTION_REVERTED cross-chain and TRANSACTION_REVERTED for a same-chain swap', () => {
    expect(revertedFillReason(record('Call'), revertFailure(error('Refused', '7')))).toBe('EXECUTION_REVERTED');
    expect(revertedFillReason(record('Call'), undefined)).toBe('EXECUTION_REVERTED');
    expect(revertedFillReason(record('Same-chain Swap'), revertFailure({ kind: 'panic', code: 0x11, data: '0x' }))).toBe('TRANSACTION_REVERTED');
  });
});

describe('a failure as status details show it (SPEC §2.4, the same JSON on every chain as before the neutral failure type)', () => {
  it('an EVM revert: the decoded revert, then its label', () => {
    const revert = error('MintNotActive');
    expect(JSON.stringify(revertFailure(revert).details)).toBe(JSON.stringify({ ...revert, label: revertLabel(revert) }));
    expect(revertFailure(revert)).toMatchObject({ errorName: 'MintNotActive', message: 'MintNotActive()', failReason: 'MINT_NOT_ACTIVE' });
  });
  it('a named failure of another chain reads as the custom error, a told one as the reason string', () => {
    const named: DecodedRevert = { kind: 'customError', errorName: 'InsufficientFunds', args: [], data: '0x' };
    expect(JSON.stringify(namedFailure('InsufficientFunds', 'short').details)).toBe(JSON.stringify({ ...named, label: revertLabel(named) }));
    expect(namedFailure('InsufficientFunds', 'short').failReason).toBe('SOLVER_BALANCE_TOO_LOW');
    const told: DecodedRevert = { kind: 'reasonString', reason: 'account 7 is paused', data: '0x' };
    expect(JSON.stringify(messageFailure('ACCOUNT_PAUSED', 'account 7 is paused').details)).toBe(JSON.stringify({ ...told, label: revertLabel(told) }));
    expect(messageFailure('FillNotSupported', 'transfer amount exceeds balance').failReason).toBe('TRANSFER_AMOUNT_EXCEEDS_BALANCE');
  });
});

describe('revertLabel', () => {
  it('reads each kind in one line', () => {
    expect(revertLabel(error('IncorrectPayment', '1', '2'))).toBe('IncorrectPayment(1, 2)');
    expect(revertLabel(reason('DexRouter: EXPIRED'))).toBe('Error("DexRouter: EXPIRED")');
    expect(revertLabel({ kind: 'panic', code: 0x11, data: '0x' })).toBe('Panic(0x11: arithmetic underflow or overflow)');
    expect(revertLabel({ kind: 'undecoded', data: '0xdeadbeef00' })).toBe('unknown error 0xdeadbeef');
    expect(revertLabel({ kind: 'noData', data: '0x' })).toBe('no revert data');
  });
});
