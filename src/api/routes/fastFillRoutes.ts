import { Router } from 'express';
import { z } from 'zod';
import { parseUnits } from 'viem';
import type { RequestFastFillParams } from '../../solver/requestFastFill';
import type { RequestStatus } from '../../domain/request/requestStatus';
import type { ApiKeyStore } from '../../store/ApiKeyStore';
import { parseWithSchema } from '../../errors/parseWithSchema';
import { requireApiKey } from '../requestApiKey';
import { RequestIdSchema } from '../../domain/request/requestId';
import { uint256String } from '../../domain/money/uint256String';

export const FastFillSchema = z
  .object({
    requestId: RequestIdSchema,
    solverInputCurrencyAmount: uint256String().optional(),
    maxFillAmountUsd: z.string().regex(/^[0-9]+(\.[0-9]{1,6})?$/, 'must be a decimal USD amount').optional(),
  })
  .strict();

/**
 * SPEC §1.6 fast fill, as the service's `POST /fast-fill { requestId, solverInputCurrencyAmount?,
 * maxFillAmountUsd? }` (x-api-key required): the solver fills the request now, before its deposit
 * is indexed, as if `solverInputCurrencyAmount` (default: the quoted input) had been deposited.
 * Answers once the fill is mined.
 */
export function fastFillRoutes(deps: {
  apiKeys: ApiKeyStore;
  /** `requestFastFill` over the solver, handed in by the root. */
  fastFill: (params: RequestFastFillParams) => Promise<{ requestId: string; status: RequestStatus }>;
}): Router {
  const router = Router();
  router.post('/fast-fill', async (req, res) => {
    requireApiKey(req, deps.apiKeys);
    const body = parseWithSchema(FastFillSchema, req.body);
    const filled = await deps.fastFill({
      requestId: body.requestId,
      ...(body.solverInputCurrencyAmount === undefined ? {} : { solverInputCurrencyAmount: BigInt(body.solverInputCurrencyAmount) }),
      ...(body.maxFillAmountUsd === undefined ? {} : { maxFillAmountUsdMicros: parseUnits(body.maxFillAmountUsd, 6) }),
    });
    res.status(200).json({ message: `Fast fill of ${filled.requestId} is ${filled.status}` });
  });
  return router;
}
