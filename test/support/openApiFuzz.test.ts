import fc from 'fast-check';
import Ajv2020 from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { SchemaArbitraries } from './openApiFuzz';

/** A small document: the schemas the generator must both satisfy and break, checked by an ajv of its own. */
const COMPONENT = { type: 'object', properties: { id: { type: 'string', pattern: '^0x[0-9a-f]{4}$' } }, required: ['id'], additionalProperties: false };
const SCHEMAS: Record<string, object> = {
  pattern: { type: 'string', pattern: '^[1-9][0-9]{0,3}$' },
  lengths: { type: 'string', minLength: 2, maxLength: 5 },
  bounded: { type: 'integer', exclusiveMinimum: 0, maximum: 64 },
  enum: { type: 'string', enum: ['fill', 'never'] },
  list: { type: 'array', items: { type: 'integer', minimum: 0 }, minItems: 1, maxItems: 3 },
  object: { type: 'object', properties: { amount: { type: 'string', pattern: '^[0-9]{1,78}$' }, kind: { const: 'x' }, ref: { $ref: '#/components/schemas/Ref' } }, required: ['amount', 'ref'], additionalProperties: false },
  union: { anyOf: [{ type: 'integer', minimum: 10 }, { type: 'string', format: 'uri' }] },
};
const DOCUMENT = {
  openapi: '3.1.0',
  paths: {
    '/things/{id}': {
      post: {
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^[a-z]{3}$' } },
          { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 50 } },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: SCHEMAS.object } } },
      },
    },
  },
  components: { schemas: { Ref: COMPONENT, ...SCHEMAS } },
};

const independent = new Ajv2020({ strict: false });
(await import('ajv-formats')).default(independent);
independent.addSchema(DOCUMENT, 'doc');
const check = (name: string) => independent.compile({ $ref: `doc#/components/schemas/${name}` });

describe('SchemaArbitraries: values from a JSON Schema (draft 2020-12)', () => {
  const arbitraries = new SchemaArbitraries(DOCUMENT);

  it.each(Object.keys(SCHEMAS))('%s: every valid value satisfies the schema', (name) => {
    const validate = check(name);
    for (const value of fc.sample(arbitraries.valid(['components', 'schemas', name]), { numRuns: 200, seed: 1 })) expect(validate(value), JSON.stringify(value)).toBe(true);
  });

  it.each(Object.keys(SCHEMAS))('%s: invalid values break it (nearly all: the rest are sorted out by accepts), in more than one way', (name) => {
    const validate = check(name);
    const invalid = fc.sample(arbitraries.invalid(['components', 'schemas', name])!, { numRuns: 200, seed: 2 });
    const broken = invalid.filter(({ value }) => !validate(value));
    expect(broken.length).toBeGreaterThan(invalid.length * 0.8);
    expect(new Set(broken.map(({ broke }) => broke)).size).toBeGreaterThan(1);
    // accepts() agrees with the independent validator
    for (const { value } of invalid) expect(arbitraries.accepts(['components', 'schemas', name], value)).toBe(validate(value));
  });

  it('an object is broken one constraint at a time: a required property left out, an unknown one, a bad nested value', () => {
    const broke = new Set(fc.sample(arbitraries.invalid(['components', 'schemas', 'object'])!, { numRuns: 300, seed: 3 }).map(({ broke }) => broke));
    expect(broke).toContain('required amount');
    expect(broke).toContain('additionalProperties');
    expect([...broke].some((way) => way.startsWith('ref: id: pattern'))).toBe(true);
  });

  it('requests: valid ones fill path, query and body from their schemas; invalid ones say what they broke, and break it', () => {
    const { valid, invalid } = arbitraries.requests('/things/{id}', 'post');
    const body = check('object');
    for (const request of fc.sample(valid, { numRuns: 100, seed: 4 })) {
      expect(request.url).toMatch(/^\/things\/[a-z]{3}(\?limit=([1-9]|[1-4][0-9]|50))?$/);
      expect(body(JSON.parse(request.body!)), request.body).toBe(true);
      expect(request).toMatchObject({ valid: true, headers: { 'content-type': 'application/json' } });
    }
    const broken = fc.sample(invalid!, { numRuns: 200, seed: 5 }).filter((request) => !request.valid);
    const where = new Set(broken.map((request) => request.broke!.split(':')[0]));
    expect([...where]).toEqual(expect.arrayContaining(['path id', 'query limit', 'body amount', 'body required amount', 'body']));
    for (const request of broken.filter((one) => one.broke!.startsWith('query limit'))) {
      const limit = new URL(request.url, 'http://x').searchParams.get('limit')!;
      expect(/^([1-9]|[1-4][0-9]|50)$/.test(limit), limit).toBe(false);
    }
  });

  it('hints: a value of the hinted name is used where its schema takes it, never where it does not', () => {
    const hinted = new SchemaArbitraries(DOCUMENT, { id: ['abc', 'not-three-letters'] });
    const ids = fc.sample(hinted.requests('/things/{id}', 'post').valid, { numRuns: 100, seed: 6 }).map((request) => request.url.split(/[/?]/)[2]);
    expect(ids.filter((id) => id === 'abc').length).toBeGreaterThan(30);
    expect(ids).not.toContain('not-three-letters');
  });
});
