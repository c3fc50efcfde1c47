import { parseAbi } from 'viem';

/**
 * Custom errors of widely used libraries that integrators' contracts revert with, beyond those the
 * fixture contracts declare themselves, so a revert from a contract the simulator has no ABI for
 * still decodes to a name (SPEC §2.4 "decoded revert data"): OpenZeppelin Contracts v5, Permit2,
 * Solady's SafeTransferLib and ERC20, Uniswap's Universal Router, ERC-4337 and drop/marketplace
 * contracts. (OpenZeppelin's `Address.InsufficientBalance(uint256,uint256)` is left out: its name
 * is the simulator's own solver-balance error.)
 */
export const STANDARD_ERRORS_ABI = parseAbi([
  // OpenZeppelin Contracts v5: ERC-20, ERC-721, ERC-1155 (draft-IERC6093)
  'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
  'error ERC20InvalidSender(address sender)',
  'error ERC20InvalidReceiver(address receiver)',
  'error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
  'error ERC20InvalidApprover(address approver)',
  'error ERC20InvalidSpender(address spender)',
  'error ERC721InvalidOwner(address owner)',
  'error ERC721NonexistentToken(uint256 tokenId)',
  'error ERC721IncorrectOwner(address sender, uint256 tokenId, address owner)',
  'error ERC721InvalidSender(address sender)',
  'error ERC721InvalidReceiver(address receiver)',
  'error ERC721InsufficientApproval(address operator, uint256 tokenId)',
  'error ERC721InvalidApprover(address approver)',
  'error ERC721InvalidOperator(address operator)',
  'error ERC1155InsufficientBalance(address sender, uint256 balance, uint256 needed, uint256 tokenId)',
  'error ERC1155InvalidSender(address sender)',
  'error ERC1155InvalidReceiver(address receiver)',
  'error ERC1155MissingApprovalForAll(address operator, address owner)',
  'error ERC1155InvalidApprover(address approver)',
  'error ERC1155InvalidOperator(address operator)',
  'error ERC1155InvalidArrayLength(uint256 idsLength, uint256 valuesLength)',
  // OpenZeppelin Contracts v5: Pausable, SafeERC20, ECDSA, ERC20Permit, Nonces, Ownable, ReentrancyGuard
  'error EnforcedPause()',
  'error ExpectedPause()',
  'error SafeERC20FailedOperation(address token)',
  'error ECDSAInvalidSignature()',
  'error ECDSAInvalidSignatureLength(uint256 length)',
  'error ECDSAInvalidSignatureS(bytes32 s)',
  'error ERC2612ExpiredSignature(uint256 deadline)',
  'error ERC2612InvalidSigner(address signer, address owner)',
  'error InvalidAccountNonce(address account, uint256 currentNonce)',
  'error OwnableUnauthorizedAccount(address account)',
  'error ReentrancyGuardReentrantCall()',
  // Permit2
  'error SignatureExpired(uint256 signatureDeadline)',
  'error InvalidNonce()',
  'error InvalidSigner()',
  'error InvalidSignature()',
  'error InvalidSignatureLength()',
  'error InvalidContractSignature()',
  'error AllowanceExpired(uint256 deadline)',
  'error InsufficientAllowance(uint256 amount)',
  // Solady SafeTransferLib and ERC20
  'error TransferFromFailed()',
  'error TransferFailed()',
  'error ETHTransferFailed()',
  'error ApproveFailed()',
  'error PermitExpired()',
  'error InvalidPermit()',
  // Uniswap Universal Router
  'error V2TooLittleReceived()',
  'error V3TooLittleReceived()',
  'error TransactionDeadlinePassed()',
  'error V2InvalidPath()',
  'error V3InvalidSwap()',
  // ERC-4337 entry points (v0.6 / v0.7)
  'error FailedOp(uint256 opIndex, string reason)',
  'error FailedOpWithRevert(uint256 opIndex, string reason, bytes inner)',
  // drops and marketplaces
  'error NotActive(uint256 currentTimestamp, uint256 startTimestamp, uint256 endTimestamp)',
  'error MintQuantityExceedsMaxMintedPerWallet(uint256 total, uint256 allowed)',
  'error WrongValueSent()',
  'error BadSignatureV(uint8 v)',
  'error InsufficientEtherSupplied()',
]);
