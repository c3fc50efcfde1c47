/**
 * JSON Schemas of the service's published API answers, generated from the official SDK's
 * OpenAPI-generated types (`@relayprotocol/relay-sdk`, `_types/src/types/api.d.ts`, the `paths`
 * interface) with ts-json-schema-generator, additional properties allowed.
 *
 * Usage: `npm run published-api-schemas` (= `tsx scripts/generate-published-api-schemas.ts`)
 * rewrites `test/publishedApi/publishedApiSchemas.json`. Generating takes seconds, so `npm test`
 * does not: `test/publishedApi/publishedApiSchemasFresh.test.ts` checks that the committed file was
 * generated from the installed types, this script and this generator version (their hashes).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createGenerator } from 'ts-json-schema-generator';

export const schemasPath = fileURLToPath(new URL('../test/publishedApi/publishedApiSchemas.json', import.meta.url));
const scriptPath = fileURLToPath(import.meta.url);
const require = createRequire(import.meta.url);

/** Every published route the simulator serves, by the name its schema gets. */
export const PUBLISHED_ROUTES = {
  QuoteV2: ['post', '/quote/v2'],
  QuoteV1: ['post', '/quote'],
  Price: ['post', '/price'],
  Chains: ['get', '/chains'],
  ChainsLiquidity: ['get', '/chains/liquidity'],
  ChainsHealth: ['get', '/chains/health'],
  Config: ['get', '/config'],
  ConfigV2: ['get', '/config/v2'],
  StatusV1: ['get', '/intents/status'],
  StatusV2: ['get', '/intents/status/v2'],
  StatusV3: ['get', '/intents/status/v3'],
  RequestsV1: ['get', '/requests'],
  RequestsV2: ['get', '/requests/v2'],
  RequestsV3: ['get', '/requests/v3'],
  Signature: ['get', '/requests/{requestId}/signature'],
  SignatureV2: ['get', '/requests/{requestId}/signature/v2'],
  CurrenciesV1: ['post', '/currencies/v1'],
  CurrenciesV2: ['post', '/currencies/v2'],
  TokenPrice: ['get', '/currencies/token/price'],
  TokenPriceV2: ['get', '/currencies/token/price/v2'],
  SwapSources: ['get', '/swap-sources'],
  AppFeeBalances: ['get', '/app-fees/{wallet}/balances'],
  AppFeeClaim: ['post', '/app-fees/{wallet}/claim'],
  AppFeeClaims: ['get', '/app-fees/{wallet}/claims'],
  Execute: ['post', '/execute'],
  ExecutePermits: ['post', '/execute/permits'],
  FastFill: ['post', '/fast-fill'],
  TransactionsIndex: ['post', '/transactions/index'],
  TransactionsSingle: ['post', '/transactions/single'],
  DepositAddressReindex: ['post', '/transactions/deposit-address/reindex'],
} as const satisfies Record<string, readonly ['get' | 'post', string]>;

export type PublishedRouteName = keyof typeof PUBLISHED_ROUTES;

// the SDK's package exports neither its package.json nor its api.d.ts: read them from its folder
const sdkDir = fileURLToPath(new URL('../node_modules/@relayprotocol/relay-sdk/', import.meta.url));
const publishedTypesPath = () => join(sdkDir, '_types/src/types/api.d.ts');

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** What the committed schemas were generated from; the freshness test compares it with the checkout. */
export function generationInputs() {
  return {
    sdkVersion: (JSON.parse(readFileSync(join(sdkDir, 'package.json'), 'utf8')) as { version: string }).version,
    generatorVersion: (require('ts-json-schema-generator/package.json') as { version: string }).version,
    publishedTypesSha256: sha256(readFileSync(publishedTypesPath(), 'utf8')),
    scriptSha256: sha256(readFileSync(scriptPath, 'utf8')),
  };
}

/**
 * Two withdrawal routes answer 200 with a body typed `never` (`content: never`); the generator
 * then types the whole `paths` interface, and every route read through it, as `never`. Those two
 * bodies (routes the simulator does not serve) become optional in the copy the generator reads;
 * nothing else of the published types changes.
 */
function generatorReadableTypes(source: string): string {
  const neverBodies = source.match(/^(\s+)content: never;$/gm) ?? [];
  if (neverBodies.length !== 2) throw new Error(`expected the 2 withdrawal answers typed \`content: never\`, found ${neverBodies.length}: check the published types`);
  return source.replace(/^(\s+)content: never;$/gm, '$1content?: never;');
}

export function generatePublishedApiSchemas() {
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-published-api-'));
  try {
    writeFileSync(join(dir, 'api.d.ts'), generatorReadableTypes(readFileSync(publishedTypesPath(), 'utf8')));
    const aliases = Object.entries(PUBLISHED_ROUTES).map(
      ([name, [method, path]]) => `export type ${name} = paths['${path}']['${method}']['responses']['200']['content']['application/json'];`,
    );
    writeFileSync(join(dir, 'routes.ts'), [`import type { paths } from './api.js';`, ...aliases].join('\n'));
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, module: 'ESNext', moduleResolution: 'bundler', skipLibCheck: true } }));
    const generator = createGenerator({
      path: join(dir, 'routes.ts'),
      tsconfig: join(dir, 'tsconfig.json'),
      type: '*',
      expose: 'export',
      topRef: true,
      jsDoc: 'none',
      skipTypeCheck: true,
      additionalProperties: true,
    });
    const definitions = generator.createSchema('*').definitions ?? {};
    const schemas: Record<string, unknown> = {};
    for (const name of Object.keys(PUBLISHED_ROUTES)) {
      const schema = definitions[name];
      if (schema === undefined || JSON.stringify(schema) === '{"not":{}}') throw new Error(`no schema for ${name}: the generator read its type as never`);
      schemas[name] = schema;
    }
    return { $comment: 'Generated by scripts/generate-published-api-schemas.ts from the official SDK\'s published API types; do not edit.', inputs: generationInputs(), schemas };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(schemasPath, `${JSON.stringify(generatePublishedApiSchemas(), null, 1)}\n`);
  console.log(`wrote ${schemasPath}`);
}
