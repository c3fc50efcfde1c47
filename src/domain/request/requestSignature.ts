import { encodeAbiParameters, isHex, keccak256, pad, toHex, type Hex } from 'viem';
import type { RequestRecord } from './requestRecord';

/** SPEC §2.5 `requestData`: the order parameters the solver attests to. */
export interface RequestSignatureData {
  originChainId: number;
  originUser: string;
  originCurrency: string;
  /** The quoted input amount (`details.currencyIn.amount`), smallest unit. */
  originAmount: string;
  destinationChainId: number;
  destinationUser: string;
}

/** The order parameters of a request as the signature lookup reports them (SPEC §2.5). */
export function requestSignatureDataOf(record: RequestRecord): RequestSignatureData {
  return {
    originChainId: record.quote.originChainId,
    originUser: record.quote.user,
    originCurrency: record.quote.currencyIn.address,
    originAmount: record.quote.amounts.amountIn.toString(),
    destinationChainId: record.quote.destinationChainId,
    destinationUser: record.quote.recipient,
  };
}

/**
 * An address as a bytes32 word: hex addresses (EVM, 20 bytes) are left-padded with zeros;
 * anything else (a non-EVM address in another encoding) is represented by its keccak-256.
 */
export function addressToBytes32(address: string): Hex {
  if (isHex(address) && address.length <= 66) return pad(address.toLowerCase() as Hex, { size: 32 });
  return keccak256(toHex(address));
}

/**
 * SPEC §4.5: the message the solver signs is keccak-256 of the ABI encoding of
 * (bytes32 requestId, uint256 originChainId, bytes32 originUser, bytes32 originCurrency,
 * uint256 originAmount, uint256 destinationChainId, bytes32 destinationUser).
 */
export function requestSignatureDigest(requestId: Hex, data: RequestSignatureData): Hex {
  return keccak256(
    encodeAbiParameters(
      [
        { type: 'bytes32' },
        { type: 'uint256' },
        { type: 'bytes32' },
        { type: 'bytes32' },
        { type: 'uint256' },
        { type: 'uint256' },
        { type: 'bytes32' },
      ],
      [
        pad(requestId, { size: 32 }),
        BigInt(data.originChainId),
        addressToBytes32(data.originUser),
        addressToBytes32(data.originCurrency),
        BigInt(data.originAmount),
        BigInt(data.destinationChainId),
        addressToBytes32(data.destinationUser),
      ],
    ),
  );
}
