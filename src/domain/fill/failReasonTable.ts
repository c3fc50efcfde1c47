import type { FailReason } from '../request/requestStatus';

/**
 * SPEC §7.3: the failReason a failure is labelled with, the way the service labels the reverts of
 * destination calls: by the error's name, or by the text of its reason (an EVM `Error(string)`,
 * the reason a custom error carries like ERC-4337's `FailedOp(opIndex, "AA25 …")`, another
 * chain's message) by pattern. Each chain reads its own failures with these (the EVM adapter its
 * decoded reverts, `revertFailReason.ts`).
 * Names and strings cover the fixture contracts (fixtures/contracts: EditionMint1155,
 * MarketplaceOrderBook, PausableBadge, MinimalEntryPoint, DexRouter, PermitToken) and the errors of
 * OpenZeppelin Contracts (v5 custom errors, v4 strings), Permit2, Solady/Solmate and Uniswap-style
 * routers that integrators' contracts commonly revert with.
 */
const ERROR_NAME_REASONS: ReadonlyMap<string, FailReason> = new Map(
  (
    [
      // the simulator's own contracts (fills through ServiceReceiver, the pool, the stablecoin)
      [['InsufficientFunds', 'InsufficientBalance'], 'SOLVER_BALANCE_TOO_LOW'],
      // Solana: a transfer that would leave an account below the rent-exempt minimum
      [['InsufficientFundsForRent'], 'INSUFFICIENT_FUNDS_FOR_RENT'],
      [['TooLittleReceived', 'TooMuchRequested'], 'TOO_LITTLE_RECEIVED'],
      [['AccountBlocked'], 'DESTINATION_TOKEN_TRANSFER_REJECTED'],
      // ServiceReceiver wraps a call of the fill that reverted without data
      [['CallFailed'], 'MISSING_REVERT_DATA'],
      [['InsufficientLiquidity'], 'INSUFFICIENT_POOL_LIQUIDITY'],
      // mints (drop contracts)
      [['MintNotActive', 'NotActive', 'SaleNotActive', 'PublicSaleNotActive', 'MintingNotActive', 'MintNotStarted'], 'MINT_NOT_ACTIVE'],
      [['MintQuantityExceedsMaxSupply', 'ExceedsMaxSupply', 'MaxSupplyExceeded', 'MaxSupplyReached', 'SoldOut'], 'MINT_QUANTITY_EXCEEDS_MAX_SUPPLY'],
      [
        ['MintQuantityExceedsMaxPerWallet', 'MintQuantityExceedsMaxMintedPerWallet', 'ExceedsMaxPerWallet', 'MaxPerWalletExceeded', 'WalletLimitExceeded'],
        'MINT_QUANTITY_EXCEEDS_MAX_PER_WALLET',
      ],
      [['IncorrectPayment', 'WrongValueSent', 'InvalidPayment', 'IncorrectValue'], 'INCORRECT_PAYMENT'],
      [['TooManyRequested', 'MintQuantityExceedsMaxPerTransaction', 'ExceedsMaxPerTransaction'], 'ERC_1155_TOO_MANY_REQUESTED'],
      // marketplaces (signed orders)
      [['InvalidTime', 'OrderExpired'], 'ORDER_EXPIRED'],
      [['OrderIsCancelled', 'OrderCancelled'], 'ORDER_IS_CANCELLED'],
      [['OrderAlreadyFilled', 'OrderFilled'], 'ORDER_ALREADY_FILLED'],
      [['InexactFraction', 'BadFraction'], 'MARKETPLACE_INEXACT_FRACTION'],
      [['InvalidFulfiller'], 'MARKETPLACE_INVALID_FULFILLER'],
      [['InsufficientNativeTokensSupplied', 'InsufficientEtherSupplied'], 'INSUFFICIENT_NATIVE_TOKENS_SUPPLIED'],
      // signatures, nonces, permits (OpenZeppelin v5, Permit2)
      [['InvalidSignature', 'BadSignatureV', 'ECDSAInvalidSignature', 'ECDSAInvalidSignatureLength', 'ECDSAInvalidSignatureS', 'InvalidSignatureLength'], 'INVALID_SIGNATURE'],
      [['InvalidSigner', 'ERC2612InvalidSigner'], 'INVALID_SIGNER'],
      [['ERC2612ExpiredSignature', 'SignatureExpired', 'ExpiredSignature', 'PermitExpired'], 'SIGNATURE_EXPIRED'],
      [['InvalidAccountNonce', 'InvalidNonce', 'NonceAlreadyUsed'], 'INVALID_NONCE'],
      [['InvalidGasPrice', 'GasPriceTooHigh'], 'INVALID_GAS_PRICE'],
      // tokens (OpenZeppelin v5 ERC-20 / 721 / 1155, SafeERC20, Solady/Solmate SafeTransferLib)
      [['EnforcedPause', 'ContractPaused', 'TransfersPaused'], 'CONTRACT_PAUSED'],
      [['TokenNotTransferable', 'NonTransferable', 'Soulbound', 'TokenIsSoulbound', 'TransferDisabled', 'TransfersDisabled'], 'TOKEN_NOT_TRANSFERABLE'],
      [['ERC20InsufficientBalance', 'ERC1155InsufficientBalance'], 'TRANSFER_AMOUNT_EXCEEDS_BALANCE'],
      [['ERC20InsufficientAllowance', 'ERC721InsufficientApproval', 'ERC1155MissingApprovalForAll', 'InsufficientAllowance'], 'TRANSFER_AMOUNT_EXCEEDS_ALLOWANCE'],
      [['ERC20InvalidSender', 'ERC721InvalidSender', 'ERC1155InvalidSender'], 'INVALID_SENDER'],
      [['TransferFromFailed'], 'TRANSFER_FROM_FAILED'],
      [['TransferFailed', 'SafeERC20FailedOperation', 'ETHTransferFailed'], 'TRANSFER_FAILED'],
      // DEX routers
      [['ZeroSellAmount', 'InsufficientInputAmount'], 'ZERO_SELL_AMOUNT'],
      [['TransactionDeadlinePassed', 'DeadlineExpired', 'DeadlinePassed'], 'PROTOCOL_DEADLINE_EXPIRED'],
      [['V2TooLittleReceived', 'V3TooLittleReceived', 'InsufficientOutputAmount'], 'SWAP_IMPACT_TOO_HIGH'],
      [['V2InvalidPath', 'V3InvalidSwap', 'InvalidPath'], 'PROTOCOL_DEX_ERROR'],
    ] as const
  ).flatMap(([names, reason]) => names.map((name) => [name, reason] as const)),
);

/** Reason strings, first match wins (more specific patterns before the general ones). */
const REASON_PATTERNS: ReadonlyArray<readonly [RegExp, FailReason]> = [
  // ERC-4337 entry point reason codes (FailedOp)
  [/^AA25\b/, 'ACCOUNT_ABSTRACTION_INVALID_NONCE'],
  [/^AA24\b/, 'ACCOUNT_ABSTRACTION_SIGNATURE_ERROR'],
  [/^AA(4[01]|95)\b/, 'ACCOUNT_ABSTRACTION_GAS_LIMIT'],
  // mints
  [/\b(mint|minting|sale|public sale) (is )?not (active|live|started|open)\b/i, 'MINT_NOT_ACTIVE'],
  [/exceeds? (the )?max(imum)? supply|max supply (reached|exceeded)|sold out/i, 'MINT_QUANTITY_EXCEEDS_MAX_SUPPLY'],
  [/exceeds? (the )?max(imum)? (mints? )?per (wallet|address)|max (mints? )?per (wallet|address) (reached|exceeded)/i, 'MINT_QUANTITY_EXCEEDS_MAX_PER_WALLET'],
  [/too many requested/i, 'ERC_1155_TOO_MANY_REQUESTED'],
  [/incorrect (payment|price|value|eth value)|wrong (payment|price|value)|invalid payment/i, 'INCORRECT_PAYMENT'],
  // pausing and soulbound tokens (OpenZeppelin v4: "Pausable: paused")
  [/pausable: paused|\b(contract|token|transfers?) (is |are )?paused\b|^paused$/i, 'CONTRACT_PAUSED'],
  [/non-?transfer+able|not transfer+able|soulbound|transfers? (are |is )?(disabled|not allowed)/i, 'TOKEN_NOT_TRANSFERABLE'],
  // ERC-20 (OpenZeppelin v4 strings; Uniswap/Solmate TransferHelper)
  [/transfer amount exceeds allowance|insufficient allowance/i, 'TRANSFER_AMOUNT_EXCEEDS_ALLOWANCE'],
  [/(transfer|burn) amount exceeds balance|insufficient balance/i, 'TRANSFER_AMOUNT_EXCEEDS_BALANCE'],
  [/transfer from the zero address|invalid sender/i, 'INVALID_SENDER'],
  [/TRANSFER_FROM_FAILED|transferFrom failed|^STF$/i, 'TRANSFER_FROM_FAILED'],
  [/TRANSFER_FAILED|transfer failed|^TF$/i, 'TRANSFER_FAILED'],
  // signatures and nonces (ERC20Permit, ECDSA, EIP-3009 tokens)
  [/expired deadline|signature (has )?expired|expired signature|permit expired|authorization is expired/i, 'SIGNATURE_EXPIRED'],
  [/invalid signer|wrong signer/i, 'INVALID_SIGNER'],
  [/invalid signature|bad signature/i, 'INVALID_SIGNATURE'],
  [/invalid nonce|nonce (already )?used|authorization is used/i, 'INVALID_NONCE'],
  [/invalid gas price|gas price too high/i, 'INVALID_GAS_PRICE'],
  // marketplaces
  [/order (is |has )?expired/i, 'ORDER_EXPIRED'],
  [/order (is |was )?cancell?ed/i, 'ORDER_IS_CANCELLED'],
  [/(order (is )?)?already filled/i, 'ORDER_ALREADY_FILLED'],
  [/inexact fraction/i, 'MARKETPLACE_INEXACT_FRACTION'],
  [/invalid fulfiller/i, 'MARKETPLACE_INVALID_FULFILLER'],
  [/insufficient (native|ether|eth)( tokens)? supplied/i, 'INSUFFICIENT_NATIVE_TOKENS_SUPPLIED'],
  // DEX routers (Uniswap V2 style "Router: CODE" strings, V3 "Too little received")
  [/INSUFFICIENT_OUTPUT_AMOUNT|too little received/i, 'SWAP_IMPACT_TOO_HIGH'],
  [/INSUFFICIENT_INPUT_AMOUNT|zero sell amount/i, 'ZERO_SELL_AMOUNT'],
  [/INSUFFICIENT_LIQUIDITY|insufficient liquidity/i, 'INSUFFICIENT_POOL_LIQUIDITY'],
  [/\bEXPIRED\b/, 'PROTOCOL_DEADLINE_EXPIRED'],
  [/transaction too old|deadline (passed|expired|exceeded)/i, 'PROTOCOL_DEADLINE_EXPIRED'],
  [/^\w*(router|library|pair|pool|swap|dex)\w*: /i, 'PROTOCOL_DEX_ERROR'],
];

/** The §7.3 value of an error known by `name`, or undefined when the table does not know it. */
export function failReasonOfErrorName(name: string): FailReason | undefined {
  return ERROR_NAME_REASONS.get(name);
}

/** The §7.3 value a reason's text matches, or undefined when no pattern does. */
export function failReasonOfText(text: string): FailReason | undefined {
  return REASON_PATTERNS.find(([pattern]) => pattern.test(text))?.[1];
}
