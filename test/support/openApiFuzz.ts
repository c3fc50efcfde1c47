import fc from 'fast-check';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

/**
 * Requests generated from an OpenAPI 3.1 document itself: its parameters' and request bodies'
 * JSON Schemas (draft 2020-12) are walked into fast-check arbitraries of values that satisfy
 * them, and of values that break exactly one of their constraints (a type, a bound, a pattern, an
 * enum, a required or unknown property, one bad item). Each value is checked against its schema
 * with ajv, so a generator slip never counts a valid input as invalid. A new operation is fuzzed
 * without a test change (test/api/openapiFuzz.test.ts, scripts/bench/fuzz.ts).
 */

type Schema = Record<string, unknown>;
type Json = Record<string, unknown>;

/** One generated request, and what the document says of its input. */
export interface FuzzCase {
  /** `METHOD /template` */
  operation: string;
  method: string;
  /** The path with its parameters filled and the query string. */
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** Whether every parameter and the body satisfy their schemas. */
  valid: boolean;
  /** What was broken, for an invalid case (`query limit: maximum`). */
  broke?: string;
}

/** Values to prefer for a property or parameter of this name (ids the simulator knows), each used only where its schema takes it. */
export type FuzzHints = Record<string, readonly unknown[]>;

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  security?: Record<string, unknown>[];
}

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
const MAX_GENERATED_LENGTH = 40;

/** Arbitraries of valid and invalid values for the schemas of one OpenAPI document. */
export class SchemaArbitraries {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly validArbitraries = new Map<string, fc.Arbitrary<unknown>>();
  private readonly invalidArbitraries = new Map<string, fc.Arbitrary<{ value: unknown; broke: string }> | undefined>();

  constructor(private readonly document: Json, private readonly hints: FuzzHints = {}, private readonly documentId = 'fuzzed-openapi.json') {
    addFormats(this.ajv);
    this.ajv.addSchema(document, documentId);
  }

  /** Whether `value` satisfies the schema at `pointer` (a JSON pointer into the document, as segments). */
  accepts(pointer: readonly string[], value: unknown): boolean {
    const key = pointer.map(escapePointer).join('/');
    let validate = this.validators.get(key);
    if (!validate) {
      // a schema without references compiles alone, once for every place it occurs (most leaves are alike)
      const schema = this.at(pointer);
      const text = JSON.stringify(schema);
      validate = text.includes('"$ref"') ? this.ajv.compile({ $ref: `${this.documentId}#/${key}` }) : (this.validators.get(text) ?? this.ajv.compile(typeof schema === 'object' ? schema : {}));
      if (!text.includes('"$ref"')) this.validators.set(text, validate);
      this.validators.set(key, validate);
    }
    return validate(value) as boolean;
  }

  /** The schema at `pointer`, its `$ref`s followed; the pointer it was found at. */
  private resolve(pointer: readonly string[]): { schema: Schema | boolean; at: readonly string[] } {
    let at = pointer;
    let schema = this.at(at);
    for (let hops = 0; typeof schema === 'object' && typeof schema.$ref === 'string' && hops < 20; hops++) {
      at = schema.$ref.replace(/^#\//, '').split('/').map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
      schema = this.at(at);
    }
    return { schema, at };
  }

  private at(pointer: readonly string[]): Schema | boolean {
    let node: unknown = this.document;
    for (const segment of pointer) node = (node as Json | undefined)?.[segment];
    return (node ?? true) as Schema | boolean;
  }

  /** Values the schema at `pointer` accepts (`name`: the property or parameter it is, for hints). */
  valid(pointer: readonly string[], name?: string): fc.Arbitrary<unknown> {
    const key = `${pointer.join('/')} ${name ?? ''}`;
    let arbitrary = this.validArbitraries.get(key);
    if (!arbitrary) this.validArbitraries.set(key, (arbitrary = this.validOf(pointer, name)));
    return arbitrary;
  }

  private validOf(pointer: readonly string[], name?: string): fc.Arbitrary<unknown> {
    const generated = this.validBySchema(pointer);
    const hinted = (name === undefined ? [] : (this.hints[name] ?? [])).filter((value) => this.accepts(pointer, value));
    return hinted.length === 0 ? generated : fc.oneof({ arbitrary: fc.constantFrom(...hinted), weight: 3 }, { arbitrary: generated, weight: 1 });
  }

  private validBySchema(pointer: readonly string[]): fc.Arbitrary<unknown> {
    const { schema, at } = this.resolve(pointer);
    if (schema === false) return fc.constant(undefined);
    if (schema === true) return fc.jsonValue({ maxDepth: 1 });
    if ('const' in schema) return fc.constant(schema.const);
    if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      const branches = schema[keyword];
      if (Array.isArray(branches)) return fc.oneof(...branches.map((_branch, index) => this.valid([...at, keyword, String(index)])));
    }
    if (Array.isArray(schema.allOf) && schema.allOf.length > 0) return this.valid([...at, 'allOf', '0']);
    const type = typeOf(schema);
    if (Array.isArray(schema.type)) return fc.oneof(...(schema.type as string[]).map((one) => this.validOfType(one, schema, at)));
    return this.validOfType(type, schema, at);
  }

  private validOfType(type: string | undefined, schema: Schema, at: readonly string[]): fc.Arbitrary<unknown> {
    switch (type) {
      case 'string':
        return validString(schema);
      case 'integer':
      case 'number':
        return validNumber(schema, type === 'integer');
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array': {
        const minLength = Number(schema.minItems ?? 0);
        const maxLength = Math.min(Number(schema.maxItems ?? minLength + 3), minLength + 3);
        return fc.array(this.valid([...at, 'items']), { minLength, maxLength });
      }
      case 'object': {
        const properties = Object.keys((schema.properties as Json | undefined) ?? {});
        const required = new Set((schema.required as string[] | undefined) ?? []);
        const record = Object.fromEntries(properties.map((property) => [property, this.valid([...at, 'properties', property], property)]));
        return fc.record(record, { requiredKeys: properties.filter((property) => required.has(property)) });
      }
      default:
        return fc.jsonValue({ maxDepth: 1 });
    }
  }

  /**
   * Values that break exactly one constraint of the schema at `pointer` (a value the schema accepts
   * may slip in: `accepts` sorts them out). Undefined when the schema accepts anything.
   */
  invalid(pointer: readonly string[]): fc.Arbitrary<{ value: unknown; broke: string }> | undefined {
    const key = pointer.join('/');
    if (!this.invalidArbitraries.has(key)) this.invalidArbitraries.set(key, this.invalidOf(pointer));
    return this.invalidArbitraries.get(key);
  }

  private invalidOf(pointer: readonly string[]): fc.Arbitrary<{ value: unknown; broke: string }> | undefined {
    const { schema, at } = this.resolve(pointer);
    if (schema === true || schema === false) return undefined;
    const ways: fc.Arbitrary<{ value: unknown; broke: string }>[] = [];
    const way = (broke: string, arbitrary: fc.Arbitrary<unknown>) => ways.push(arbitrary.map((value) => ({ value, broke })));
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeOf(schema) ? [typeOf(schema)!] : [];
    if (types.length > 0) way('type', fc.constantFrom(...OTHER_TYPE_VALUES.filter((value) => !types.some((type) => isOfType(value, type)))));
    if ('const' in schema) way('const', fc.constantFrom('not-the-const', 0, false));
    if (Array.isArray(schema.enum)) way('enum', fc.oneof(fc.string({ maxLength: 12 }), fc.constant('NOT_IN_THE_ENUM')));
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      const branches = schema[keyword];
      if (Array.isArray(branches)) {
        const broken = branches.map((_branch, index) => this.invalid([...at, keyword, String(index)])).filter((arbitrary) => arbitrary !== undefined);
        if (broken.length > 0) ways.push(fc.oneof(...broken).map(({ value, broke }) => ({ value, broke: `${keyword}: ${broke}` })));
      }
    }
    if (types.includes('string')) invalidStrings(schema, way);
    if (types.includes('integer') || types.includes('number')) invalidNumbers(schema, types.includes('integer') && !types.includes('number'), way);
    if (types.includes('array')) {
      const minItems = Number(schema.minItems ?? 0);
      const item = this.valid([...at, 'items']);
      if (minItems > 0) way('minItems', fc.array(item, { minLength: minItems - 1, maxLength: minItems - 1 }));
      if (typeof schema.maxItems === 'number' && schema.maxItems < 1000) way('maxItems', fc.array(item, { minLength: schema.maxItems + 1, maxLength: schema.maxItems + 1 }));
      const badItem = this.invalid([...at, 'items']);
      if (badItem) ways.push(fc.tuple(fc.array(item, { minLength: Math.max(0, minItems - 1), maxLength: minItems + 1 }), badItem).map(([items, bad]) => ({ value: [...items, bad.value], broke: `items: ${bad.broke}` })));
    }
    if (types.includes('object')) this.invalidObjects(schema, at, ways);
    return ways.length === 0 ? undefined : fc.oneof(...ways);
  }

  private invalidObjects(schema: Schema, at: readonly string[], ways: fc.Arbitrary<{ value: unknown; broke: string }>[]): void {
    const valid = this.validOfType('object', schema, at) as fc.Arbitrary<Json>;
    const properties = Object.keys((schema.properties as Json | undefined) ?? {});
    for (const property of (schema.required as string[] | undefined) ?? []) {
      ways.push(valid.map((value) => ({ value: Object.fromEntries(Object.entries(value).filter(([key]) => key !== property)), broke: `required ${property}` })));
    }
    for (const property of properties) {
      const bad = this.invalid([...at, 'properties', property]);
      if (bad) ways.push(fc.tuple(valid, bad).map(([value, broken]) => ({ value: { ...value, [property]: broken.value }, broke: `${property}: ${broken.broke}` })));
    }
    if (schema.additionalProperties === false) ways.push(valid.map((value) => ({ value: { ...value, notADocumentedProperty: 1 }, broke: 'additionalProperties' })));
  }

  /** A valid and an invalid request of each kind for one operation of the document. */
  requests(path: string, method: string, options: { apiKey?: string } = {}): { valid: fc.Arbitrary<FuzzCase>; invalid: fc.Arbitrary<FuzzCase> | undefined } {
    const operationPointer = ['paths', path, method];
    const operation = this.at(operationPointer) as Operation;
    const parameters = (operation.parameters ?? []).map((parameter, index) => ({ parameter, pointer: [...operationPointer, 'parameters', String(index), 'schema'] }));
    const bodyPointer = [...operationPointer, 'requestBody', 'content', 'application/json', 'schema'];
    const hasBody = operation.requestBody?.content?.['application/json'] !== undefined;
    const keyRequired = (operation.security ?? []).length > 0 && !(operation.security ?? []).some((requirement) => Object.keys(requirement).length === 0);
    const headers: Record<string, string> = options.apiKey && (operation.security ?? []).some((requirement) => 'apiKey' in requirement) ? { 'x-api-key': options.apiKey } : {};
    const name = `${method.toUpperCase()} ${path}`;

    type Values = { params: Record<string, unknown>; body: unknown };
    const validParams = fc.record(
      Object.fromEntries(parameters.map(({ parameter, pointer }) => [parameter.name, this.valid(pointer, parameter.name)])),
      { requiredKeys: parameters.filter(({ parameter }) => parameter.required).map(({ parameter }) => parameter.name) },
    ) as fc.Arbitrary<Record<string, unknown>>;
    const validValues: fc.Arbitrary<Values> = fc.record({ params: validParams, body: hasBody ? this.valid(bodyPointer) : fc.constant(undefined) });
    const build = (values: Values, broke: string | undefined, requestHeaders = headers): FuzzCase => {
      let url = path;
      const query = new URLSearchParams();
      for (const { parameter } of parameters) {
        const value = values.params[parameter.name];
        if (value === undefined) continue;
        if (parameter.in === 'path') url = url.replace(`{${parameter.name}}`, encodeURIComponent(serialized(value)));
        else if (parameter.in === 'query') query.append(parameter.name, serialized(value));
      }
      url = url.replace(/\{[^}]+\}/g, '');
      const search = query.toString();
      return {
        operation: name,
        method: method.toUpperCase(),
        url: search ? `${url}?${search}` : url,
        headers: values.body === undefined ? requestHeaders : { ...requestHeaders, 'content-type': 'application/json' },
        body: values.body === undefined ? undefined : JSON.stringify(values.body),
        valid: broke === undefined,
        ...(broke === undefined ? {} : { broke }),
      };
    };

    // exactly one part broken: a parameter (a bad value, or a required one left out), the body, or the key
    const breaks: fc.Arbitrary<FuzzCase>[] = [];
    for (const { parameter, pointer } of parameters) {
      const bad = this.invalid(pointer);
      if (bad) {
        breaks.push(
          fc.tuple(validValues, bad).map(([values, broken]) => {
            // a parameter is text: what the server reads is the text as the schema's type takes it
            const sent = parameterInstance(serialized(broken.value), this.resolve(pointer).schema);
            const stillValid = this.accepts(pointer, sent) && !(parameter.in === 'path' && serialized(broken.value) === '');
            return build({ ...values, params: { ...values.params, [parameter.name]: broken.value } }, stillValid ? undefined : `${parameter.in} ${parameter.name}: ${broken.broke}`);
          }),
        );
      }
      if (parameter.in === 'path') {
        // text no decoder takes: a `%` not followed by two hex digits
        const marker = 'malformed-percent-encoding';
        breaks.push(validValues.map((values) => {
          const built = build({ ...values, params: { ...values.params, [parameter.name]: marker } }, `path ${parameter.name}: percent-encoding`);
          return { ...built, url: built.url.replace(marker, '%E0%A4%A') };
        }));
      }
      if (parameter.required && parameter.in === 'query') {
        breaks.push(validValues.map((values) => build({ ...values, params: { ...values.params, [parameter.name]: undefined } }, `query ${parameter.name}: required`)));
      }
    }
    if (hasBody) {
      const bad = this.invalid(bodyPointer);
      if (bad) breaks.push(fc.tuple(validValues, bad).map(([values, broken]) => build({ ...values, body: broken.value }, this.accepts(bodyPointer, broken.value) ? undefined : `body ${broken.broke}`)));
      if (operation.requestBody?.required) breaks.push(validValues.map((values) => build({ ...values, body: undefined }, 'body: required')));
    }
    if (keyRequired) breaks.push(validValues.map((values) => build(values, 'x-api-key: required', {})));
    return { valid: validValues.map((values) => build(values, undefined)), invalid: breaks.length === 0 ? undefined : fc.oneof(...breaks) };
  }
}

/** Every operation of a document: `[path, method]`. */
export function operationsOf(document: Json): [string, string][] {
  return Object.entries(document.paths as Record<string, Json>).flatMap(([path, methods]) => Object.keys(methods).filter((method) => ['get', 'post', 'put', 'delete', 'patch'].includes(method)).map((method): [string, string] => [path, method]));
}

const OTHER_TYPE_VALUES: unknown[] = ['text', 7, 2.5, true, null, [], {}];

function typeOf(schema: Schema): string | undefined {
  if (typeof schema.type === 'string') return schema.type;
  if (schema.properties || schema.required || schema.additionalProperties !== undefined) return 'object';
  if (schema.items) return 'array';
  return undefined;
}

function isOfType(value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return true;
  }
}

function validString(schema: Schema): fc.Arbitrary<string> {
  const minLength = Number(schema.minLength ?? 0);
  const maxLength = Number(schema.maxLength ?? Math.max(minLength, MAX_GENERATED_LENGTH));
  const fits = (text: string) => text.length >= minLength && text.length <= maxLength;
  if (typeof schema.pattern === 'string') {
    const pattern = new RegExp(schema.pattern, 'u');
    // a pattern without anchors matches inside any text: keep what it generates short
    return stringsMatching(schema.pattern).map((text) => (fits(text) ? text : (pattern.exec(text)?.[0] ?? text)));
  }
  switch (schema.format) {
    case 'uri':
    case 'url':
      // loopback, to a port nothing listens on: a fuzzed webhook endpoint never posts off the machine
      return fc.string({ unit: fc.constantFrom(...'abcxyz019-_/'), maxLength: 16 }).map((path) => `http://127.0.0.1:9/${path}`);
    case 'date-time':
      return fc.date({ min: new Date(0), max: new Date(Date.UTC(2100, 0)), noInvalidDate: true }).map((date) => date.toISOString());
    case 'email':
      return fc.emailAddress();
    default:
      return fc.string({ minLength, maxLength: Math.min(maxLength, Math.max(minLength, MAX_GENERATED_LENGTH)) });
  }
}

/** fast-check builds a pattern's arbitrary slowly (~0.1 s for a quantified group): once per pattern. */
const MATCHING = new Map<string, fc.Arbitrary<string>>();
function stringsMatching(pattern: string): fc.Arbitrary<string> {
  let arbitrary = MATCHING.get(pattern);
  if (!arbitrary) MATCHING.set(pattern, (arbitrary = fc.stringMatching(new RegExp(pattern, 'u'))));
  return arbitrary;
}

function bounds(schema: Schema): { min?: number; max?: number; minExcluded: boolean; maxExcluded: boolean } {
  const exclusiveMin = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : undefined;
  const exclusiveMax = typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : undefined;
  return {
    min: exclusiveMin ?? (typeof schema.minimum === 'number' ? schema.minimum : undefined),
    max: exclusiveMax ?? (typeof schema.maximum === 'number' ? schema.maximum : undefined),
    minExcluded: exclusiveMin !== undefined,
    maxExcluded: exclusiveMax !== undefined,
  };
}

function validNumber(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const { min, max, minExcluded, maxExcluded } = bounds(schema);
  if (integer) {
    const low = min === undefined ? Number.MIN_SAFE_INTEGER : minExcluded ? Math.floor(min) + 1 : Math.ceil(min);
    const high = max === undefined ? Number.MAX_SAFE_INTEGER : maxExcluded ? Math.ceil(max) - 1 : Math.floor(max);
    return fc.integer({ min: low, max: high });
  }
  return fc.double({ noNaN: true, noDefaultInfinity: true, min: min ?? -1e15, max: max ?? 1e15, minExcluded, maxExcluded });
}

type Way = (broke: string, arbitrary: fc.Arbitrary<unknown>) => void;

function invalidStrings(schema: Schema, way: Way): void {
  const minLength = Number(schema.minLength ?? 0);
  if (minLength > 0) way('minLength', fc.string({ minLength: minLength - 1, maxLength: minLength - 1 }));
  if (typeof schema.maxLength === 'number' && schema.maxLength < 100_000) way('maxLength', fc.string({ minLength: schema.maxLength + 1, maxLength: schema.maxLength + 8 }));
  if (typeof schema.pattern === 'string') way('pattern', fc.oneof(fc.string({ maxLength: 12 }), validString({ pattern: schema.pattern }).map((text) => `${text}!`), fc.constantFrom('', ' ', '0x', '-1')));
  if (typeof schema.format === 'string') way('format', fc.constantFrom('not a value of its format', '::', ''));
}

function invalidNumbers(schema: Schema, integer: boolean, way: Way): void {
  const { min, max, minExcluded, maxExcluded } = bounds(schema);
  if (integer) way('integer', fc.double({ min: -1e6, max: 1e6, noNaN: true, noInteger: true }));
  if (min !== undefined) way('minimum', fc.integer({ min: 0, max: 1000 }).map((below) => (minExcluded ? min - below : min - 1 - below)));
  if (max !== undefined) way('maximum', fc.integer({ min: 0, max: 1000 }).map((above) => (maxExcluded ? max + above : max + 1 + above)));
}

/** A value as a parameter's text: strings as they are, the rest as JSON (numbers, booleans). */
function serialized(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? '';
}

/** A parameter's text as the schema's type reads it (`5` for an integer parameter, `true` for a boolean one). */
function parameterInstance(text: string, schema: Schema | boolean): unknown {
  if (typeof schema !== 'object') return text;
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
  if ((types.includes('integer') || types.includes('number')) && /^-?[0-9]+(\.[0-9]+)?(e[+-]?[0-9]+)?$/i.test(text)) return Number(text);
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}
