import { Router } from 'express';
import { z } from 'zod';
import type { AppFeeClaims } from '../../appFees/AppFeeClaims';
import { parseWithSchema } from '../../errors/parseWithSchema';
import { uint256String } from '../../domain/money/uint256String';
import { SignatureSchema, signatureOf } from './signatureParam';
import { InvalidRequestBodyError } from '../../errors/requestErrors';

export const WalletPathSchema = z.object({ wallet: z.string().min(1).max(128) });
export const ClaimPathSchema = z.object({ wallet: z.string().min(1).max(128), claimId: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hex claim id') });

/** The SDK's `claimAppFees` body (`{ chainId, currency, recipient, amount? }`); other keys are ignored. */
export const ClaimBodySchema = z.object({
  chainId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  currency: z.string().min(1).max(128),
  recipient: z.string().min(1).max(128),
  amount: uint256String().optional(),
});

export const ClaimSignatureBodySchema = z.object({ claimId: z.string().optional(), signature: SignatureSchema.optional() });

export const ClaimsQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(50).default(20),
    continuation: z.string().regex(/^[0-9]{1,15}$/, 'must be a continuation this endpoint answered').optional(),
  })
  .strict();

/**
 * SPEC §1.6 / §4.7 "get app fee balances" and "claim app fees", at the official SDK's published
 * paths: `GET /app-fees/{wallet}/balances`, `POST /app-fees/{wallet}/claim` (answers the signature
 * step), the step's post `POST /app-fees/{wallet}/claims/{claimId}/signature`, and
 * `GET /app-fees/{wallet}/claims`. No API key (the SDK never sends one to these).
 */
export function appFeeRoutes(deps: { appFees: AppFeeClaims }): Router {
  const router = Router();
  router.get('/app-fees/:wallet/balances', (req, res) => {
    const { wallet } = parseWithSchema(WalletPathSchema, req.params, 'path');
    res.json(deps.appFees.balances(wallet));
  });

  router.post('/app-fees/:wallet/claim', (req, res) => {
    const { wallet } = parseWithSchema(WalletPathSchema, req.params, 'path');
    const body = parseWithSchema(ClaimBodySchema, req.body);
    res.json(deps.appFees.startClaim(wallet, { ...body, amount: body.amount === undefined ? undefined : BigInt(body.amount) }));
  });

  router.post('/app-fees/:wallet/claims/:claimId/signature', async (req, res) => {
    const { wallet, claimId } = parseWithSchema(ClaimPathSchema, req.params, 'path');
    const body = parseWithSchema(ClaimSignatureBodySchema, req.body);
    if (body.claimId !== undefined && body.claimId.toLowerCase() !== claimId.toLowerCase()) throw new InvalidRequestBodyError('Invalid request: claimId: differs from the path');
    const signature = signatureOf(req.query, body);
    if (signature === undefined) throw new InvalidRequestBodyError('Invalid request: signature: required (query parameter `signature`, as the SDK posts it, or in the body)');
    res.json(await deps.appFees.executeClaim(wallet, claimId, signature));
  });

  router.get('/app-fees/:wallet/claims', (req, res) => {
    const { wallet } = parseWithSchema(WalletPathSchema, req.params, 'path');
    const query = parseWithSchema(ClaimsQuerySchema, req.query, 'query');
    res.json(deps.appFees.listClaims(wallet, query.limit, query.continuation === undefined ? undefined : Number(query.continuation)));
  });
  return router;
}
