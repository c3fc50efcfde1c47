import { Router } from 'express';
import { z } from 'zod';
import { parseUnits } from 'viem';
import { requestFastFill } from '../../solver/requestFastFill';
import type { FastFillOutcome } from '../../solver/Solver';
import type { ApiKeyStore } from '../../store/ApiKeyStore';
import type { RequestStore } from '../../store/RequestStore';
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
  requests: RequestStore;
  solver: { fastFill(requestId: string, assumedInput: bigint): Promise<FastFillOutcome> };
}): Router {
  const router = Router();
  router.post('/fast-fill', async (req, res) => {
    requireApiKey(req, deps.apiKeys);
    const body = parseWithSchema(FastFillSchema, req.body);
    const filled = await requestFastFill(deps, {
      requestId: body.requestId,
      ...(body.solverInputCurrencyAmount === undefined ? {} : { solverInputCurrencyAmount: BigInt(body.solverInputCurrencyAmount) }),
      ...(body.maxFillAmountUsd === undefined ? {} : { maxFillAmountUsdMicros: parseUnits(body.maxFillAmountUsd, 6) }),
    });
    res.status(200).json({ message: `Fast fill of ${filled.requestId} is ${filled.status}` });
  });
  return router;
}
