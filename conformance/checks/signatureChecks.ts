import { randomBytes } from 'node:crypto';
import { isAddress, isHex, recoverMessageAddress, type Hex } from 'viem';
import { CheckSkipped, ruleBroken, type CheckContext, type ConformanceCheck } from '../check';
import { expectClientError } from '../clientErrors';
import { expectShape, expectStatus, expectThat } from '../expectations';
import type { Exchange } from '../http';
import { sameId } from '../requestIds';
import { quotedRequestsOf, type QuotedRequest } from '../quotedRequests';
import { signatureLookupSchema, type SignatureLookup } from '../schemas/signatureSchema';
import { requestAttestationDigest } from '../requestAttestationDigest';

async function lookUpSignature(http: CheckContext['http'], request: QuotedRequest): Promise<{ lookup: SignatureLookup; exchange: Exchange }> {
  const exchange = await http.get(`/requests/${encodeURIComponent(request.requestId)}/signature`);
  expectStatus(exchange, 200, `§4.5: GET /requests/{requestId}/signature answers 200 for a request the service quoted (${request.label})`);
  return { lookup: expectShape(exchange, signatureLookupSchema, '§2.5: the signature lookup has requestData (every field, typed) and a hex signature'), exchange };
}

/** The run's requests whose attestation the suite can rebuild: a 32-byte id and EVM addresses. */
function evmRequests(requests: readonly QuotedRequest[]): QuotedRequest[] {
  return requests.filter((request) => isHex(request.requestId) && request.requestId.length === 66 && [request.user, request.recipient, request.originCurrency].every((address) => isAddress(address, { strict: false })));
}

/** §2.5 and §4.5: the solver-signed attestation of a request's order parameters. */
export const signatureChecks: readonly ConformanceCheck[] = [
  {
    id: 'signature.request-data',
    section: '2.5',
    title: 'requestData of each quoted request is what was quoted: origin chain, user, currency, amount, destination chain, recipient',
    mode: 'read-only',
    async run({ http, target }) {
      const set = await quotedRequestsOf(target);
      for (const request of set.requests) {
        const { lookup, exchange } = await lookUpSignature(http, request);
        const data = lookup.requestData;
        const rule = `§2.5: requestData holds the order parameters of the request (${request.label})`;
        const mismatches = [
          data.originChainId !== request.originChainId && `originChainId ${data.originChainId}, quoted ${request.originChainId}`,
          !sameId(data.originUser, request.user) && `originUser ${data.originUser}, quoted user ${request.user}`,
          !sameId(data.originCurrency, request.originCurrency) && `originCurrency ${data.originCurrency}, quoted ${request.originCurrency}`,
          BigInt(data.originAmount) !== request.amountIn && `originAmount ${data.originAmount}, quoted input ${request.amountIn}`,
          data.destinationChainId !== request.destinationChainId && `destinationChainId ${data.destinationChainId}, quoted ${request.destinationChainId}`,
          !sameId(data.destinationUser, request.recipient) && `destinationUser ${data.destinationUser}, quoted recipient ${request.recipient}`,
        ].filter((mismatch): mismatch is string => typeof mismatch === 'string');
        expectThat(mismatches.length === 0, rule, mismatches.join('; '), exchange);
      }
    },
  },
  {
    id: 'signature.recovers-to-solver',
    section: '4.5',
    title: 'the signature, over keccak-256 of the ABI-encoded order tuple as an EVM personal message, recovers to a solver address of /chains',
    mode: 'read-only',
    async run({ http, target }) {
      const set = await quotedRequestsOf(target);
      const requests = evmRequests(set.requests);
      if (requests.length === 0) throw new CheckSkipped('no quoted request with a 32-byte id and EVM addresses: the signed tuple cannot be rebuilt');
      const chains = await target.chains();
      // "the same address on every supported chain": every EVM chain that names its solvers
      const evmChainsWithSolvers = chains.filter((chain) => chain.vmType === 'evm' && chain.solverAddresses.length > 0);
      for (const request of requests) {
        const solvers = chains.find((chain) => chain.id === request.originChainId)?.solverAddresses ?? [];
        if (solvers.length === 0) throw new CheckSkipped(`GET /chains lists no solverAddresses for chain ${request.originChainId}: no signer to compare with`);
        const { lookup, exchange } = await lookUpSignature(http, request);
        const rule = '§4.5: the solver wallet signs keccak-256(abi.encode(requestId, originChainId, originUser, originCurrency, originAmount, destinationChainId, destinationUser)) as an EVM personal message';
        // the tuple of the request as quoted: a signature over other parameters attests to something else
        const digest = requestAttestationDigest({
          requestId: request.requestId as Hex,
          originChainId: request.originChainId,
          originUser: request.user as Hex,
          originCurrency: request.originCurrency as Hex,
          originAmount: request.amountIn,
          destinationChainId: request.destinationChainId,
          destinationUser: request.recipient as Hex,
        });
        let signer: string;
        try {
          signer = await recoverMessageAddress({ message: { raw: digest }, signature: lookup.signature as Hex });
        } catch (error) {
          ruleBroken(rule, `the signature does not recover to any address: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`, exchange);
        }
        expectThat(
          solvers.some((solver) => sameId(solver, signer)),
          rule,
          `the signature of the ${request.label} recovers to ${signer}, which is not among solverAddresses of chain ${request.originChainId} (${solvers.join(', ')})`,
          exchange,
        );
        const without = evmChainsWithSolvers.filter((chain) => !chain.solverAddresses.some((solver) => sameId(solver, signer)));
        expectThat(
          without.length === 0,
          '§4.5: the solver wallet has the same address on every supported chain',
          `the signer ${signer} is not among solverAddresses of chain${without.length > 1 ? 's' : ''} ${without.map((chain) => chain.id).join(', ')}`,
          exchange,
        );
      }
    },
  },
  {
    id: 'signature.unknown-request',
    section: '4.5',
    title: 'the signature lookup of a requestId the service never issued (or a malformed one) is a 4xx with an errorCode, not a signature',
    mode: 'read-only',
    async run({ http }) {
      const unknown = await http.get(`/requests/0x${randomBytes(32).toString('hex')}/signature`);
      expectClientError(unknown, '§4.5: the solver attests only to requests it has: an unknown requestId is refused with a 4xx and an errorCode');
      const malformed = await http.get('/requests/not-a-request-id/signature');
      expectClientError(malformed, '§4.5: the solver attests only to requests it has: a malformed requestId is refused with a 4xx and an errorCode');
    },
  },
];
