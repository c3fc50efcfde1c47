import type { Hex } from 'viem';

/**
 * SPEC §4.7 `POST /authorize`, §9 2026-05-21: the exchange flow's nonce-mapping authorization.
 * The wallet signs that its exchange nonce `nonce` belongs to request `id`, paid by `depositor`.
 * Version 2 (current) has `depositor` and domain version "2"; version 1 (refused since
 * 2026-05-21) had neither. Pure: the typed data as viem's signTypedData / verifyTypedData take it.
 */
export const NONCE_MAPPING_DOMAIN_NAME = 'NonceMapping';
export const NONCE_MAPPING_VERSION = '2';

export const NONCE_MAPPING_TYPES_V2 = {
  NonceMapping: [
    { name: 'wallet', type: 'address' },
    { name: 'id', type: 'bytes32' },
    { name: 'nonce', type: 'uint256' },
    { name: 'depositor', type: 'address' },
  ],
} as const;

/** The version-1 shape (no `depositor`), kept only to recognise and refuse old signatures. */
export const NONCE_MAPPING_TYPES_V1 = {
  NonceMapping: [
    { name: 'wallet', type: 'address' },
    { name: 'id', type: 'bytes32' },
    { name: 'nonce', type: 'uint256' },
  ],
} as const;

export interface NonceMapping {
  wallet: Hex;
  requestId: Hex;
  nonce: bigint;
  depositor: Hex;
  /** The domain's chain: the request's origin chain. */
  chainId: number;
}

function domain(version: string, chainId: number) {
  return { name: NONCE_MAPPING_DOMAIN_NAME, version, chainId };
}

/** The version-2 typed data a wallet signs now. */
export function nonceMappingTypedData(mapping: NonceMapping) {
  return {
    domain: domain(NONCE_MAPPING_VERSION, mapping.chainId),
    types: NONCE_MAPPING_TYPES_V2,
    primaryType: 'NonceMapping' as const,
    message: { wallet: mapping.wallet, id: mapping.requestId, nonce: mapping.nonce, depositor: mapping.depositor },
  };
}

/**
 * The outdated signatures a client made of the same mapping before 2026-05-21: the version-1
 * shape (no `depositor`) under domain version "1", and the two half-migrated mixes (the new shape
 * under version "1", the old shape under version "2"). Recognised only to refuse them clearly.
 */
export function outdatedNonceMappingTypedData(mapping: NonceMapping) {
  const oldShape = (version: string) => ({
    domain: domain(version, mapping.chainId),
    types: NONCE_MAPPING_TYPES_V1,
    primaryType: 'NonceMapping' as const,
    message: { wallet: mapping.wallet, id: mapping.requestId, nonce: mapping.nonce },
  });
  return [oldShape('1'), { ...nonceMappingTypedData(mapping), domain: domain('1', mapping.chainId) }, oldShape(NONCE_MAPPING_VERSION)] as const;
}
