import { Router } from 'express';
import { z } from 'zod';
import { parseUnits } from 'viem';
import { usdMicrosOf } from '../../domain/money/usdValue';
import { FastFillConflictError, FastFillRejectedError } from '../../errors/fastFillErrors';
import { InvalidRequestBodyError, RequestNotFoundError } from '../../errors/requestErrors';
import type { FastFillOutcome } from '../../solver/Solver';
import type { ApiKeyStore } from '../../store/ApiKeyStore';
import type { RequestStore } from '../../store/RequestStore';
import { parseWithSchema } from '../parseBody';
import { requireApiKey } from '../requestApiKey';
import { RequestIdSchema } from '../../domain/request/requestId';

const FastFillSchema = z
  .object({
    requestId: RequestIdSchema,
    solverInputCurrencyAmount: z.string().regex(/^[0-9]+$/, 'must be an integer string in the smallest unit').optional(),
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
    const record = deps.requests.get(body.requestId);
    if (!record) throw new RequestNotFoundError(body.requestId);
    if (body.maxFillAmountUsd !== undefined) {
      const fillUsd = usdMicrosOf(record.quote.amounts.amountOut, record.quote.currencyOut);
      if (fillUsd > parseUnits(body.maxFillAmountUsd, 6)) {
        throw new FastFillRejectedError(`the fill is worth more than maxFillAmountUsd ${body.maxFillAmountUsd}`);
      }
    }
    const assumed = body.solverInputCurrencyAmount === undefined ? record.quote.amounts.amountIn : BigInt(body.solverInputCurrencyAmount);
    if (assumed === 0n) throw new InvalidRequestBodyError('Invalid request: solverInputCurrencyAmount must be greater than zero');
    const outcome = await deps.solver.fastFill(record.id, assumed);
    if (outcome.kind === 'not-waiting') throw new FastFillConflictError(record.id, outcome.status ?? 'unknown');
    if (outcome.kind === 'rejected') throw new FastFillRejectedError(`the fill would not be made: ${outcome.failReason}`);
    res.status(200).json({ message: `Fast fill of ${record.id} is ${outcome.status}` });
  });
  return router;
}
