import { Router } from 'express';
import { z } from 'zod';
import type { Hex, LocalAccount } from 'viem';
import { requestSignatureDataOf, requestSignatureDigest } from '../../domain/request/requestSignature';
import { requestSignatureV2DataOf, requestSignatureV2Digest } from '../../domain/request/requestSignatureV2';
import { RequestNotFoundError } from '../../errors/requestErrors';
import type { RequestStore } from '../../store/RequestStore';
import { parseWithSchema } from '../../errors/parseWithSchema';
import { RequestIdSchema } from '../../domain/request/requestId';

export interface SignatureRouteDeps {
  requests: RequestStore;
  /** The solver wallet: the same address on every chain, so contracts can check it onchain. */
  solverAccount: LocalAccount;
}

export const SignatureParamsSchema = z.object({ requestId: RequestIdSchema });

/**
 * SPEC §4.5 `GET /requests/{requestId}/signature` (and `/v2`, see `requestSignatureV2Digest`): the solver wallet signs, as an EVM personal
 * message, the keccak-256 digest of the request's order tuple (`requestSignatureDigest`).
 */
export function signatureRoutes(deps: SignatureRouteDeps): Router {
  const router = Router();
  router.get('/requests/:requestId/signature', async (req, res) => {
    const { requestId } = parseWithSchema(SignatureParamsSchema, req.params, 'path');
    const record = deps.requests.get(requestId);
    if (!record) throw new RequestNotFoundError(requestId);
    const requestData = requestSignatureDataOf(record);
    const digest = requestSignatureDigest(record.id, requestData);
    const signature: Hex = await deps.solverAccount.signMessage({ message: { raw: digest } });
    res.json({ requestData, signature });
  });

  // the v2 look-up (the service's published API): origin and destination currencies, no amount
  router.get('/requests/:requestId/signature/v2', async (req, res) => {
    const { requestId } = parseWithSchema(SignatureParamsSchema, req.params, 'path');
    const record = deps.requests.get(requestId);
    if (!record) throw new RequestNotFoundError(requestId);
    const requestData = requestSignatureV2DataOf(record);
    const signature: Hex = await deps.solverAccount.signMessage({ message: { raw: requestSignatureV2Digest(record.id, requestData) } });
    res.json({ requestData, signature });
  });
  return router;
}
