import { encodeAbiParameters, keccak256, pad, type Hex } from 'viem';

/** The order parameters of a request as the solver attests to them (SPEC §2.5 `requestData`), EVM addresses. */
export interface RequestAttestation {
  requestId: Hex;
  originChainId: number;
  originUser: Hex;
  originCurrency: Hex;
  originAmount: bigint;
  destinationChainId: number;
  destinationUser: Hex;
}

/** An EVM address as a bytes32 word, left-padded with zeros. */
function addressWord(address: Hex): Hex {
  return pad(address.toLowerCase() as Hex, { size: 32 });
}

/**
 * SPEC §4.5: the message the solver signs, keccak-256 of the ABI encoding of (bytes32 requestId,
 * uint256 originChainId, bytes32 originUser, bytes32 originCurrency, uint256 originAmount,
 * uint256 destinationChainId, bytes32 destinationUser). It is signed as an EVM personal message,
 * so the signer recovers with `recoverMessageAddress({ message: { raw: digest }, signature })`.
 */
export function requestAttestationDigest(attestation: RequestAttestation): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: 'bytes32' }, { type: 'uint256' }, { type: 'bytes32' }, { type: 'bytes32' }, { type: 'uint256' }, { type: 'uint256' }, { type: 'bytes32' }],
      [
        attestation.requestId,
        BigInt(attestation.originChainId),
        addressWord(attestation.originUser),
        addressWord(attestation.originCurrency),
        attestation.originAmount,
        BigInt(attestation.destinationChainId),
        addressWord(attestation.destinationUser),
      ],
    ),
  );
}
