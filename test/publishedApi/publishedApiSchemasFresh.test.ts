import { describe, expect, it } from 'vitest';
import { generationInputs, PUBLISHED_ROUTES } from '../../scripts/generate-published-api-schemas';
import published from './publishedApiSchemas.json' with { type: 'json' };
import { publishedTypeErrors } from '../support/publishedApiTypes';

/**
 * The committed JSON Schemas (generating them takes seconds, so `npm test` reads them) were
 * generated from the installed SDK's published types, by the script as it is, with the installed
 * generator. When this fails: `npm run published-api-schemas`.
 */
describe('the published API schemas', () => {
  it('were generated from the installed published types, this script and this generator', () => {
    expect(published.inputs).toEqual(generationInputs());
  });

  it('hold one schema per published route the simulator serves, each a real constraint', () => {
    expect(Object.keys(published.schemas).sort()).toEqual(Object.keys(PUBLISHED_ROUTES).sort());
    // a schema the generator had read as `never` would reject everything, one read as `any` nothing
    for (const route of Object.keys(PUBLISHED_ROUTES) as (keyof typeof PUBLISHED_ROUTES)[]) {
      expect(publishedTypeErrors(route, 'not an answer'), route).not.toEqual([]);
    }
    expect(publishedTypeErrors('RequestsV3', { requests: [] })).toEqual([]);
  });

  it('type the §2.3 fields without null the way the issue names them: a null failedTxHash is rejected, a null failReason accepted', () => {
    const record = (data: Record<string, unknown>) => ({ requests: [{ id: '0x01', data }] });
    expect(publishedTypeErrors('RequestsV3', record({ failReason: null, refundFailReason: null }))).toEqual([]);
    for (const field of ['failedTxHash', 'failedTxBlockNumber', 'failedCallData', 'appFees']) {
      expect(publishedTypeErrors('RequestsV3', record({ [field]: null })).map((error) => error.instancePath), field).toEqual([`/requests/0/data/${field}`]);
    }
  });
});
