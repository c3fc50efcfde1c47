import { Router } from 'express';
import { z } from 'zod';
import { isAddress, type Hex } from 'viem';
import { authorizeNonceMapping, type AuthorizeDeps } from '../../authorize/authorizeNonceMapping';
import { RequestIdSchema } from '../../domain/request/requestId';
import { uint256String } from '../../domain/money/uint256String';
import { parseWithSchema } from '../../errors/parseWithSchema';
import { InvalidAddressError } from '../../errors/quoteErrors';
import { SignatureSchema, signatureOf } from './signatureParam';

/** `POST /authorize` body; `nonce` a decimal string or a safe integer; other keys (the SDK's `referrer`) are ignored. */
export const AuthorizeBodySchema = z.object({
  requestId: RequestIdSchema,
  wallet: z.string().min(1).max(128),
  depositor: z.string().min(1).max(128).optional(),
  nonce: z.union([uint256String('a non-negative integer'), z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)]),
  signature: SignatureSchema.optional(),
});

function address(field: string, value: string): Hex {
  if (!isAddress(value, { strict: false })) throw new InvalidAddressError(`${field} ${value} is not a valid address`);
  return value;
}

/**
 * SPEC §4.7 `POST /authorize` (exchange flow nonce mapping, domain version 2, `depositor`): the
 * first call (no signature) answers the `authorize` signature step with the typed data; the
 * step's post (the same path, signature in the query as the SDK sends it, or in the body) stores
 * the mapping.
 */
export function authorizeRoutes(deps: AuthorizeDeps): Router {
  const router = Router();
  router.post('/authorize', async (req, res) => {
    const body = parseWithSchema(AuthorizeBodySchema, req.body);
    const outcome = await authorizeNonceMapping(deps, {
      requestId: body.requestId as Hex,
      wallet: address('wallet', body.wallet),
      depositor: body.depositor === undefined ? undefined : address('depositor', body.depositor),
      nonce: BigInt(body.nonce),
      signature: signatureOf(req.query, body),
    });
    if (outcome.kind === 'sign') {
      res.json({ steps: outcome.steps });
      return;
    }
    res.json({ message: 'Authorized', requestId: outcome.requestId, wallet: outcome.wallet, depositor: outcome.depositor, nonce: outcome.nonce.toString() });
  });
  return router;
}
