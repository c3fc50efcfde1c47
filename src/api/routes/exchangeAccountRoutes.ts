import { Router } from 'express';
import { z } from 'zod';
import type { ChainControl } from '../../chains/ChainControl';
import { parseWithSchema } from '../../errors/parseWithSchema';
import { CheatCallRefusedError, UnknownChainError } from '../../errors/adminErrors';
import { UnsupportedOnChainError } from '../../errors/chainErrors';
import { ChainIdParam } from './controlRoutes';

export const ExchangeAccountParams = ChainIdParam.extend({ account: z.string().regex(/^\d{1,16}$/, 'an exchange account index') }).strict();

/** What `POST /admin/chains/:chainId/accounts/:account` changes; at least one field. */
export const ExchangeAccountBodySchema = z
  .object({
    paused: z.boolean().optional(),
    apiKeyRevoked: z.boolean().optional(),
    collateral: z.string().regex(/^\d{1,30}$/, 'an integer string in the smallest unit').optional(),
  })
  .strict()
  .refine((body) => Object.keys(body).length > 0, { message: 'name at least one of paused, apiKeyRevoked, collateral' });

/**
 * The exchange's account faults over HTTP (docs/control-plane.md): pause an account, revoke its API
 * key, set its collateral — on the chain that has them (`exchangeAccounts`), else `UNSUPPORTED_ON_CHAIN`.
 */
export function exchangeAccountRoutes(deps: { chainControl: ChainControl }): Router {
  const router = Router();
  router.post('/admin/chains/:chainId/accounts/:account', (req, res) => {
    const { chainId, account } = parseWithSchema(ExchangeAccountParams, req.params, 'path');
    const chain = deps.chainControl.find(chainId);
    if (!chain) throw new UnknownChainError(chainId, deps.chainControl.chainIds());
    const { collateral, ...flags } = parseWithSchema(ExchangeAccountBodySchema, req.body);
    const state = refusedAsCheatCall(chainId, `a change to account ${account}`, () =>
      chain.exchangeAccounts.setAccount(account, { ...flags, ...(collateral === undefined ? {} : { collateral: BigInt(collateral) }) }),
    );
    res.json({ chainId, ...state, collateral: String(state.collateral) });
  });
  return router;
}

/** What the exchange refuses (an account it has not) is the caller's mistake: 400 `CHEAT_CALL_REFUSED`. */
function refusedAsCheatCall<T>(chainId: number, call: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof UnsupportedOnChainError) throw error; // the chain has no exchange accounts
    throw new CheatCallRefusedError(chainId, call, error instanceof Error ? error.message : String(error));
  }
}
