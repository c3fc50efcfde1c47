import { Router } from 'express';
import { formatUnits, isAddress, parseUnits } from 'viem';
import { z } from 'zod';
import { RequestIdSchema } from '../../domain/request/requestId';
import { uint256String } from '../../domain/money/uint256String';
import { InvalidApiKeyError } from '../../errors/authErrors';
import { parseWithSchema } from '../../errors/parseWithSchema';
import { InvalidRequestBodyError } from '../../errors/requestErrors';
import type { GaslessRelay } from '../../execute/GaslessRelay';
import type { ApiKeyStore } from '../../store/ApiKeyStore';
import type { SponsorBalanceStore } from '../../store/SponsorBalanceStore';
import { apiKeyOrDefault } from '../requestApiKey';

const AddressSchema = z.string().refine((value) => isAddress(value, { strict: false }), 'must be a 0x-prefixed 20-byte address');
const HexSchema = z.string().regex(/^0x([0-9a-fA-F]{2})*$/, 'must be 0x-prefixed hex bytes');
const Bytes32Schema = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x-prefixed 32-byte hex');
const SmallIntSchema = z.number().int().min(0).max(2 ** 53 - 1);

/** EIP-7702 authorizations, as the official SDK's `executeGaslessBatch` sends them. */
const AuthorizationSchema = z
  .object({ chainId: SmallIntSchema, address: AddressSchema, nonce: SmallIntSchema, yParity: z.number().int().min(0).max(1), r: Bytes32Schema, s: Bytes32Schema })
  .strict();

const CallSchema = z.object({ to: AddressSchema, value: uint256String(), data: HexSchema }).strict();

export const ExecuteSchema = z.object({
  executionKind: z.literal('rawCalls'),
  data: z
    .object({
      chainId: z.number().int().positive().max(2 ** 53 - 1),
      to: AddressSchema,
      data: HexSchema,
      value: uint256String(),
      authorizationList: z.array(AuthorizationSchema).max(16).optional(),
    })
    .strict(),
  executionOptions: z
    .object({
      referrer: z.string().max(200),
      subsidizeFees: z.boolean(),
      destinationChainExecutionData: z
        .object({ calls: z.array(CallSchema).max(32), authorizationList: z.array(AuthorizationSchema).max(16).optional() })
        .strict()
        .optional(),
    })
    .strict(),
  requestId: RequestIdSchema.optional(),
  /** Sent by the official SDK (the executor's extra origin gas); the simulator measures the gas itself. */
  originGasOverhead: z.number().int().min(0).max(30_000_000).optional(),
});

export const PermitQuerySchema = z.object({ signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/, 'must be a 0x-prefixed 65-byte signature') });

export const PermitBodySchema = z.object({
  kind: z.literal('eip3009'),
  requestId: RequestIdSchema,
  validAfter: uint256String(),
  validBefore: uint256String(),
  /** Added by the official SDK. */
  referrer: z.string().max(200).optional(),
});

export const SponsorBalanceSchema = z.object({ balanceUsd: z.string().regex(/^[0-9]{1,15}(\.[0-9]{1,6})?$/, 'must be a decimal USD amount') }).strict();

/**
 * SPEC §1.6 gasless execution (`POST /execute`; x-api-key names the sponsor, the default key when
 * absent, as the official SDK sends none to a local URL) and gasless swaps
 * (`POST /execute/permits?signature=…`, the `data.post` of a `usePermit` quote's signature step);
 * the simulator's admin routes for an API key's sponsor balance.
 */
export function executeRoutes(deps: { apiKeys: ApiKeyStore; gaslessRelay: GaslessRelay; sponsorBalances: SponsorBalanceStore }): Router {
  const router = Router();
  router.post('/execute', async (req, res) => {
    const key = apiKeyOrDefault(req, deps.apiKeys);
    const body = parseWithSchema(ExecuteSchema, req.body);
    if (body.executionOptions.destinationChainExecutionData?.calls.length) {
      throw new InvalidRequestBodyError('destinationChainExecutionData is not simulated: send the origin call only');
    }
    const accepted = await deps.gaslessRelay.executeRawCall({
      apiKey: key.key,
      chainId: body.data.chainId,
      call: { to: body.data.to, data: body.data.data, value: BigInt(body.data.value), ...(body.data.authorizationList ? { authorizationList: body.data.authorizationList } : {}) },
      ...(body.requestId === undefined ? {} : { requestId: body.requestId }),
      subsidizeFees: body.executionOptions.subsidizeFees,
      referrer: body.executionOptions.referrer,
    });
    res.status(200).json({ message: accepted.message, requestId: accepted.requestId });
  });

  router.post('/execute/permits', async (req, res) => {
    const { signature } = parseWithSchema(PermitQuerySchema, req.query);
    const body = parseWithSchema(PermitBodySchema, req.body);
    const accepted = await deps.gaslessRelay.executeSignedDeposit({
      requestId: body.requestId,
      signature,
      validAfter: BigInt(body.validAfter),
      validBefore: BigInt(body.validBefore),
    });
    res.status(200).json({ message: accepted.message, requestId: accepted.requestId });
  });

  router.put('/admin/sponsor-balances/:apiKey', (req, res) => {
    if (!deps.apiKeys.get(req.params.apiKey)) throw new InvalidApiKeyError();
    const body = parseWithSchema(SponsorBalanceSchema, req.body);
    deps.sponsorBalances.set(req.params.apiKey, parseUnits(body.balanceUsd, 6));
    res.json(sponsorBalanceView(deps.sponsorBalances, req.params.apiKey));
  });

  router.get('/admin/sponsor-balances/:apiKey', (req, res) => {
    if (!deps.apiKeys.get(req.params.apiKey)) throw new InvalidApiKeyError();
    res.json(sponsorBalanceView(deps.sponsorBalances, req.params.apiKey));
  });
  return router;
}

function sponsorBalanceView(balances: SponsorBalanceStore, apiKey: string) {
  const usdMicros = balances.balanceOf(apiKey);
  return { apiKey, balanceUsdMicros: usdMicros.toString(), balanceUsd: formatUnits(usdMicros, 6) };
}
