import { z } from 'zod';
import type { paths } from '@relayprotocol/relay-sdk';
import {
  CurrenciesV2Schema,
  CurrenciesV1Schema,
  TokenPriceSchema,
  TokenPriceV2Schema,
  SwapSourcesSchema,
  ChainsLiquiditySchema,
  ChainsHealthSchema,
  ConfigSchema,
  ConfigV2Schema,
  ReindexSchema,
  SignatureV2Schema,
  StatusV1Schema,
  StatusV2Schema,
  AppFeeBalancesSchema,
  AppFeeClaimStepsSchema,
  AppFeeClaimsSchema,
} from '../../src/api/openapi/schemas/publishedLookupSchemas';

/**
 * Runtime schemas of look-up responses, written from the service's published API types (the
 * official SDK's OpenAPI-generated `api.d.ts`), live in src (they describe the routes in
 * `GET /openapi.json`); the compile-time checks below fail `tsc` if a schema accepts a value the
 * published type would not.
 */
type Json200<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;
type AssignableTo<S, T> = [S] extends [T] ? true : false;

export * from '../../src/api/openapi/schemas/publishedLookupSchemas';

// compile-time: each schema's values are values of the published type
export const PUBLISHED_TYPE_CHECKS: true[] = [
  true satisfies AssignableTo<z.infer<typeof AppFeeBalancesSchema>, Json200<'/app-fees/{wallet}/balances', 'get'>>,
  true satisfies AssignableTo<z.infer<typeof AppFeeClaimStepsSchema>, Json200<'/app-fees/{wallet}/claim', 'post'>>,
  true satisfies AssignableTo<z.infer<typeof AppFeeClaimsSchema>, Json200<'/app-fees/{wallet}/claims', 'get'>>,
  true satisfies AssignableTo<z.infer<typeof CurrenciesV1Schema>, Json200<'/currencies/v1', 'post'>>,
  true satisfies AssignableTo<z.infer<typeof CurrenciesV2Schema>, Json200<'/currencies/v2', 'post'>>,
  true satisfies AssignableTo<z.infer<typeof TokenPriceSchema>, Json200<'/currencies/token/price', 'get'>>,
  true satisfies AssignableTo<z.infer<typeof TokenPriceV2Schema>, Json200<'/currencies/token/price/v2', 'get'>>,
  true satisfies AssignableTo<z.infer<typeof SwapSourcesSchema>, Json200<'/swap-sources', 'get'>>,
  true satisfies AssignableTo<z.infer<typeof ChainsLiquiditySchema>, Json200<'/chains/liquidity', 'get'>>,
  true satisfies AssignableTo<z.infer<typeof ChainsHealthSchema>, Json200<'/chains/health', 'get'>>,
  true satisfies AssignableTo<z.infer<typeof ConfigSchema>, Json200<'/config', 'get'>>,
  true satisfies AssignableTo<z.infer<typeof ConfigV2Schema>, Json200<'/config/v2', 'get'>>,
  true satisfies AssignableTo<z.infer<typeof ReindexSchema>, Json200<'/transactions/deposit-address/reindex', 'post'>>,
  true satisfies AssignableTo<z.infer<typeof SignatureV2Schema>, Json200<'/requests/{requestId}/signature/v2', 'get'>>,
  true satisfies AssignableTo<z.infer<typeof StatusV1Schema>, Json200<'/intents/status', 'get'>>,
  true satisfies AssignableTo<z.infer<typeof StatusV2Schema>, Json200<'/intents/status/v2', 'get'>>,
];

/** Parses `body` with `schema`; a mismatch fails the test with every issue. */
export function expectPublishedShape<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body);
  if (!result.success) throw new Error(`response does not match the published type:\n${JSON.stringify(result.error.issues, null, 2)}\n${JSON.stringify(body).slice(0, 2000)}`);
  return result.data;
}
