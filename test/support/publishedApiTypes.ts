import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import type { PublishedRouteName } from '../../scripts/generate-published-api-schemas';
import published from '../publishedApi/publishedApiSchemas.json' with { type: 'json' };

/**
 * Live answers checked against JSON Schemas generated from the service's published API types
 * (scripts/generate-published-api-schemas.ts): what a client that parses the service's answers
 * with schemas generated from those types (zod, io-ts, a typed OpenAPI client) would accept.
 */
const addFormats = addFormatsPlugin as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ allErrors: true, strict: true }));
const validators = new Map<PublishedRouteName, ValidateFunction>();
const schemas = published.schemas as Record<PublishedRouteName, JsonSchema>;

interface JsonSchema {
  properties?: Record<string, JsonSchema>;
  [keyword: string]: unknown;
}

/**
 * Where the SPEC and the published types disagree, the SPEC wins (docs/divergences.md, "The
 * published API types"): the published schema of that field is replaced by the SPEC's type.
 */
export const SPEC_OVER_PUBLISHED_TYPES: { route: PublishedRouteName; field: string[]; specType: JsonSchema; why: string }[] = [
  {
    route: 'StatusV3',
    field: ['details'],
    specType: { type: ['object', 'null'] },
    why: 'SPEC §2.4: details is additional context (the decoded revert data), null when none; the published type says an optional string',
  },
];

function withSpecExceptions(route: PublishedRouteName): JsonSchema {
  const schema = structuredClone(schemas[route]);
  for (const exception of SPEC_OVER_PUBLISHED_TYPES.filter((entry) => entry.route === route)) {
    const parent = exception.field.slice(0, -1).reduce<JsonSchema | undefined>((node, key) => node?.properties?.[key], schema);
    const name = exception.field.at(-1)!;
    if (!parent?.properties?.[name]) throw new Error(`${route}: the published type has no field ${exception.field.join('.')} any more; drop the exception`);
    parent.properties[name] = exception.specType;
  }
  return schema;
}

function validatorOf(route: PublishedRouteName): ValidateFunction {
  let validate = validators.get(route);
  if (!validate) {
    validate = ajv.compile(withSpecExceptions(route));
    validators.set(route, validate);
  }
  return validate;
}

/** The schema errors of `body` as the 200 answer of `route` (empty when it validates). */
export function publishedTypeErrors(route: PublishedRouteName, body: unknown): ErrorObject[] {
  const validate = validatorOf(route);
  return validate(body) ? [] : [...(validate.errors ?? [])];
}

/** Fails with every error, and the offending values, when `body` is not a value of the route's published 200 type (with the SPEC's exceptions). */
export function expectPublishedType(route: PublishedRouteName, body: unknown, label: string = route): void {
  const errors = publishedTypeErrors(route, body);
  if (errors.length === 0) return;
  const lines = errors.map((error) => `  ${error.instancePath || '/'} ${error.message} (${JSON.stringify(valueAt(body, error.instancePath))?.slice(0, 200)})`);
  throw new Error(`${label}: the answer is not a value of the published type:\n${lines.join('\n')}`);
}

function valueAt(body: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], body);
}

/** Reads one request's record from `GET /requests/v3` and checks it against the published type; returns the record. */
export async function expectPublishedRecord(sim: { baseUrl: string; apiKey: string }, requestId: string, label = requestId): Promise<Record<string, any>> {
  const response = await fetch(`${sim.baseUrl}/requests/v3?id=${requestId}&includeAuthenticatedData=true`, { headers: { 'x-api-key': sim.apiKey } });
  const body = (await response.json()) as { requests?: Record<string, any>[] };
  if (response.status !== 200 || body.requests?.length !== 1) throw new Error(`${label}: GET /requests/v3?id=${requestId} answered ${response.status} ${JSON.stringify(body).slice(0, 500)}`);
  expectPublishedType('RequestsV3', body, `${label}: GET /requests/v3?id=`);
  return body.requests[0]!;
}
