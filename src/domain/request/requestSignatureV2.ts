import { encodeAbiParameters, keccak256, pad, type Hex } from 'viem';
import type { RequestRecord } from './requestRecord';
import { addressToBytes32 } from './requestSignature';

/** `requestData` of `GET /requests/{requestId}/signature/v2`, as the service's published types name it. */
export interface RequestSignatureV2Data {
  originChainId: number;
  originUser: string;
  originCurrency: string;
  destinationChainId: number;
  destinationUser: string;
  destinationCurrency: string;
}

export function requestSignatureV2DataOf(record: RequestRecord): RequestSignatureV2Data {
  return {
    originChainId: record.quote.originChainId,
    originUser: record.quote.user,
    originCurrency: record.quote.currencyIn.address,
    destinationChainId: record.quote.destinationChainId,
    destinationUser: record.quote.recipient,
    destinationCurrency: record.quote.currencyOut.address,
  };
}

/**
 * The v2 message the solver signs (the simulator's choice; the SPEC gives only v1's, §4.5): keccak-256
 * of the ABI encoding of (bytes32 requestId, uint256 originChainId, bytes32 originUser, bytes32
 * originCurrency, uint256 destinationChainId, bytes32 destinationUser, bytes32 destinationCurrency),
 * signed as an EVM personal message like v1.
 */
export function requestSignatureV2Digest(requestId: Hex, data: RequestSignatureV2Data): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: 'bytes32' }, { type: 'uint256' }, { type: 'bytes32' }, { type: 'bytes32' }, { type: 'uint256' }, { type: 'bytes32' }, { type: 'bytes32' }],
      [
        pad(requestId, { size: 32 }),
        BigInt(data.originChainId),
        addressToBytes32(data.originUser),
        addressToBytes32(data.originCurrency),
        BigInt(data.destinationChainId),
        addressToBytes32(data.destinationUser),
        addressToBytes32(data.destinationCurrency),
      ],
    ),
  );
}
