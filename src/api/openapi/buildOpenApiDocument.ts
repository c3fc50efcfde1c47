import { z } from 'zod';
import { COMMON_ERRORS, PATH_PARAMETER_ERRORS, mergeErrors, type ApiOperation } from './apiOperation';
import { errorEnvelopeSchema } from './schemas/actionResponseSchemas';

type JsonObject = Record<string, unknown>;

export interface OpenApiDocumentInfo {
  title: string;
  version: string;
  description: string;
  /** SPEC §6: webhooks the service posts (name → payload schema). */
  webhooks?: Record<string, { summary: string; payload: z.ZodType; headers: Record<string, string> }>;
}

/**
 * Builds an OpenAPI 3.1 document from route operations. Each zod schema becomes a JSON Schema
 * (draft 2020-12, the dialect of OpenAPI 3.1): request parts as the route accepts them (`io:
 * input`), answers as the route builds them (`io: output`). Schemas named with `.meta({ id })`
 * land once in `components.schemas` and are referenced from everywhere they occur.
 */
export function buildOpenApiDocument(info: OpenApiDocumentInfo, operations: readonly ApiOperation[]): JsonObject {
  const components: Record<string, unknown> = {};
  const toJson = (schema: z.ZodType, io: 'input' | 'output'): JsonObject => {
    const { $schema: _dialect, $defs, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonObject;
    for (const [id, def] of Object.entries(($defs as JsonObject | undefined) ?? {})) components[id] = rewriteRefs(def);
    return rewriteRefs(json) as JsonObject;
  };

  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of operations) {
    (paths[operation.path] ??= {})[operation.method] = operationObject(operation, toJson);
  }
  const webhooks = Object.fromEntries(
    Object.entries(info.webhooks ?? {}).map(([name, hook]) => [
      name,
      {
        post: {
          summary: hook.summary,
          parameters: Object.entries(hook.headers).map(([header, description]) => ({ name: header, in: 'header', required: true, description, schema: { type: 'string' } })),
          requestBody: { required: true, content: { 'application/json': { schema: toJson(hook.payload, 'output') } } },
          responses: { '200': { description: 'Any 2xx acknowledges the delivery; anything else is retried (SPEC §6.2)' } },
        },
      },
    ]),
  );

  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, description: info.description },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    paths,
    ...(Object.keys(webhooks).length > 0 ? { webhooks } : {}),
    components: {
      schemas: components,
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'SPEC §5: an API key (`POST /admin/api-keys`, or the default key printed at start)' } },
    },
  };
}

function operationObject(operation: ApiOperation, toJson: (schema: z.ZodType, io: 'input' | 'output') => JsonObject): JsonObject {
  const parameters = [
    ...parametersOf(operation.params, 'path', toJson),
    ...parametersOf(operation.query, 'query', toJson),
  ];
  const successStatus = String(operation.successStatus ?? 200);
  const success =
    successStatus === '204'
      ? { description: 'Done (no body)' }
      : {
          description: 'Success',
          ...(operation.responseHeaders ? { headers: headerObjects(operation.responseHeaders) } : {}),
          content: { 'application/json': { schema: toJson(operation.response, 'output') } },
        };
  const errors = Object.entries(mergeErrors(operation.errors, COMMON_ERRORS, operation.params ? PATH_PARAMETER_ERRORS : {}))
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([status, codes]) => [
    status,
    { description: `Error: ${(codes ?? []).join(', ')}`, content: { 'application/json': { schema: toJson(errorEnvelopeSchema(codes ?? []), 'output') } } },
  ]);
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    tags: [operation.tag],
    ...(operation.deprecated ? { deprecated: true } : {}),
    ...(operation.apiKey === 'required' ? { security: [{ apiKey: [] }] } : operation.apiKey === 'optional' ? { security: [{}, { apiKey: [] }] } : { security: [] }),
    ...(parameters.length > 0 ? { parameters } : {}),
    // a route reads a missing body as `{}`: the body is optional where `{}` is a valid one
    ...(operation.body ? { requestBody: { required: !operation.body.safeParse({}).success, content: { 'application/json': { schema: toJson(operation.body, 'input') } } } } : {}),
    responses: Object.fromEntries([[successStatus, success], ...errors]),
  };
}

function parametersOf(schema: z.ZodObject | undefined, where: 'path' | 'query', toJson: (schema: z.ZodType, io: 'input') => JsonObject): JsonObject[] {
  if (!schema) return [];
  return Object.entries(schema.shape).map(([name, field]) => {
    const fieldSchema = field as z.ZodType;
    const required = where === 'path' || !fieldSchema.safeParse(undefined).success;
    const json = toJson(fieldSchema, 'input');
    const { description, ...valueSchema } = json;
    return { name, in: where, required, ...(typeof description === 'string' ? { description } : {}), schema: valueSchema };
  });
}

function headerObjects(headers: Record<string, string>): JsonObject {
  return Object.fromEntries(Object.entries(headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }]));
}

/** `#/$defs/X` (zod's references to named schemas) → `#/components/schemas/X`. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, key === '$ref' && typeof inner === 'string' ? inner.replace('#/$defs/', '#/components/schemas/') : rewriteRefs(inner)]),
  );
}
