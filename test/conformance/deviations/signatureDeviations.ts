import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { requestAttestationDigest } from '../../../conformance/requestAttestationDigest';
import type { Deviation } from '../deviationProxy';

const SIGNATURE_PATH = /^\/requests\/([^/]+)\/signature$/;

interface SignatureBody {
  requestData: { originChainId: number; originUser: Hex; originCurrency: Hex; originAmount: string; destinationChainId: number; destinationUser: Hex };
  signature: Hex;
}

/** Changes each 200 answer of `GET /requests/{requestId}/signature` (the request id is the path's). */
function signatureAnswer(change: (body: SignatureBody, requestId: Hex) => void | Promise<void>): Deviation['response'] {
  return async (request, response) => {
    const match = SIGNATURE_PATH.exec(request.path);
    if (!match || response.status !== 200) return undefined;
    const body = structuredClone(response.body) as SignatureBody;
    await change(body, decodeURIComponent(match[1]!) as Hex);
    return { body };
  };
}

/** Not the solver: a key of no one's, so its signatures are well-formed forgeries. */
const forger = privateKeyToAccount(`0x${'42'.repeat(32)}`);

export const signatureDeviations: readonly Deviation[] = [
  {
    name: 'a forged signature: the right message, signed by another key',
    section: '4.5',
    only: ['signature.recovers-to-solver'],
    response: signatureAnswer(async (body, requestId) => {
      const { requestData } = body;
      const digest = requestAttestationDigest({ requestId, ...requestData, originAmount: BigInt(requestData.originAmount) });
      body.signature = await forger.signMessage({ message: { raw: digest } });
    }),
  },
  {
    name: 'the last chain of GET /chains names another solver address',
    section: '4.5',
    only: ['signature.recovers-to-solver'],
    response: (request, response) => {
      if (request.path !== '/chains' || response.status !== 200) return undefined;
      const body = structuredClone(response.body) as { chains: Array<{ solverAddresses: string[] }> };
      body.chains.at(-1)!.solverAddresses = [forger.address];
      return { body };
    },
  },
  { name: 'a signature with a byte flipped', section: '4.5', only: ['signature.recovers-to-solver'], response: signatureAnswer((body) => void (body.signature = `${body.signature.slice(0, 10)}${body.signature[10] === 'a' ? 'b' : 'a'}${body.signature.slice(11)}` as Hex)) },
  { name: 'requestData.originAmount one more than quoted', section: '2.5', only: ['signature.request-data'], response: signatureAnswer((body) => void (body.requestData.originAmount = (BigInt(body.requestData.originAmount) + 1n).toString())) },
  { name: 'requestData.destinationUser is the user, not the recipient', section: '2.5', only: ['signature.request-data'], response: signatureAnswer((body) => void (body.requestData.destinationUser = body.requestData.originUser)) },
  { name: 'requestData.originChainId as a string', section: '2.5', only: ['signature.request-data'], response: signatureAnswer((body) => void ((body.requestData as Record<string, unknown>).originChainId = String(body.requestData.originChainId))) },
  {
    name: 'the signature lookup of an unknown request answers 200 with a signature',
    section: '4.5',
    only: ['signature.unknown-request'],
    response: (request, response) => (SIGNATURE_PATH.test(request.path) && response.status === 404 ? { status: 200, body: { requestData: {}, signature: '0x' } } : undefined),
  },
];
