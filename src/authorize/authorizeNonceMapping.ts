import { getAddress, verifyTypedData, type Hex, type VerifyTypedDataParameters } from 'viem';
import type { VirtualClock } from '../clock/VirtualClock';
import { nonceMappingTypedData, outdatedNonceMappingTypedData, NONCE_MAPPING_VERSION, type NonceMapping } from '../domain/authorize/nonceMappingTypedData';
import { AuthorizationVersionUnsupportedError, InvalidSignatureError, NonceAlreadyUsedError } from '../errors/authorizeErrors';
import { RequestNotFoundError } from '../errors/requestErrors';
import type { ExchangeAuthorizationStore } from '../store/ExchangeAuthorizationStore';
import type { RequestStore } from '../store/RequestStore';

export interface AuthorizeDeps {
  requests: RequestStore;
  authorizations: ExchangeAuthorizationStore;
  clock: VirtualClock;
}

export interface AuthorizeInput {
  requestId: Hex;
  /** The wallet whose exchange nonce is mapped, and who signs. */
  wallet: Hex;
  /** SPEC §9 2026-05-21: required from version 2 on (absent: a version-1 client). */
  depositor: Hex | undefined;
  nonce: bigint;
  signature: Hex | undefined;
}

/** What `POST /authorize` answers: the step to sign (no signature yet), or the stored mapping. */
export type AuthorizeOutcome =
  | { kind: 'sign'; steps: ReturnType<typeof signatureSteps> }
  | { kind: 'authorized'; requestId: string; wallet: string; depositor: string; nonce: bigint };

function signatureSteps(mapping: NonceMapping) {
  const typed = nonceMappingTypedData(mapping);
  return [
    {
      id: 'authorize' as const,
      action: 'Confirm authorization',
      description: `Map exchange nonce ${mapping.nonce} of ${mapping.wallet} to this request (nonce mapping, version ${NONCE_MAPPING_VERSION})`,
      kind: 'signature' as const,
      items: [
        {
          status: 'incomplete' as const,
          data: {
            sign: { signatureKind: 'eip712', domain: typed.domain, types: typed.types, primaryType: typed.primaryType, value: { ...typed.message, nonce: mapping.nonce.toString() } },
            post: {
              endpoint: '/authorize',
              method: 'POST',
              body: { requestId: mapping.requestId, wallet: mapping.wallet, depositor: mapping.depositor, nonce: mapping.nonce.toString() },
            },
          },
        },
      ],
    },
  ];
}

/** Whether `signature` over the typed data recovers to `wallet` (a malformed signature is simply not). */
async function signedBy(typedData: Omit<VerifyTypedDataParameters, 'address' | 'signature'>, wallet: Hex, signature: Hex): Promise<boolean> {
  return verifyTypedData({ ...typedData, address: wallet, signature } as VerifyTypedDataParameters).catch(() => false);
}

/**
 * SPEC §4.7 `POST /authorize` (exchange flow, nonce mapping, typed-data domain version 2): without
 * a signature, answers the signature step carrying the typed data to sign; with one, checks it
 * recovers to `wallet` under version 2, refuses version-1 signatures and bodies without
 * `depositor` (UNSUPPORTED_AUTHORIZATION_VERSION), and stores the mapping: a wallet's nonce is
 * authorized once (NONCE_ALREADY_USED).
 */
export async function authorizeNonceMapping(deps: AuthorizeDeps, input: AuthorizeInput): Promise<AuthorizeOutcome> {
  if (input.depositor === undefined) {
    throw new AuthorizationVersionUnsupportedError(
      `nonce-mapping version 1 is no longer accepted (since 2026-05-21): the body and the signed typed data need \`depositor\` (an address), under domain version "${NONCE_MAPPING_VERSION}"`,
    );
  }
  const record = deps.requests.get(input.requestId);
  if (!record) throw new RequestNotFoundError(input.requestId);
  const mapping: NonceMapping = {
    wallet: getAddress(input.wallet),
    requestId: record.id as Hex,
    nonce: input.nonce,
    depositor: getAddress(input.depositor),
    chainId: record.quote.originChainId,
  };
  if (input.signature === undefined) return { kind: 'sign', steps: signatureSteps(mapping) };

  if (!(await signedBy(nonceMappingTypedData(mapping), mapping.wallet, input.signature))) {
    for (const outdated of outdatedNonceMappingTypedData(mapping)) {
      if (await signedBy(outdated, mapping.wallet, input.signature)) {
        throw new AuthorizationVersionUnsupportedError(
          `this signature is a nonce-mapping version 1 signature (domain version "${outdated.domain.version}"${'depositor' in outdated.message ? '' : ', no depositor'}), refused since 2026-05-21: sign the version 2 typed data (domain version "${NONCE_MAPPING_VERSION}", with depositor)`,
        );
      }
    }
    throw new InvalidSignatureError(`the signature does not recover to ${mapping.wallet} for the version ${NONCE_MAPPING_VERSION} nonce mapping of nonce ${mapping.nonce} to request ${mapping.requestId} (depositor ${mapping.depositor}, domain chain ${mapping.chainId})`);
  }

  const { inserted, holder } = deps.authorizations.insert({
    signer: mapping.wallet,
    nonce: mapping.nonce,
    requestId: mapping.requestId,
    depositor: mapping.depositor,
    signature: input.signature,
    createdAt: deps.clock.now(),
  });
  if (!inserted) throw new NonceAlreadyUsedError(mapping.wallet, mapping.nonce, holder.requestId);
  return { kind: 'authorized', requestId: mapping.requestId, wallet: mapping.wallet, depositor: mapping.depositor, nonce: mapping.nonce };
}
