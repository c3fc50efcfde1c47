import type { ConformanceCheck } from '../check';
import type { ConformanceHttp } from '../http';
import { expectShape, expectStatus, expectThat } from '../expectations';
import { chainsResponseSchema } from '../schemas/chainSchema';

/** `GET /chains`, its answer held to the §2.1 table. */
async function listedChains(http: ConformanceHttp) {
  const exchange = await http.get('/chains');
  const { chains } = expectShape(exchange, chainsResponseSchema, '§2.1: each chain has every field of the table');
  return { exchange, chains };
}

/** §2.1 and §4.4: `GET /chains`. */
export const chainsChecks: readonly ConformanceCheck[] = [
  {
    id: 'chains.shape',
    section: '2.1',
    title: 'GET /chains lists chains with every §2.1 field, typed as the table says',
    mode: 'read-only',
    async run({ http }) {
      const exchange = await http.get('/chains');
      expectStatus(exchange, 200, '§4.4: GET /chains answers 200');
      const { chains } = expectShape(exchange, chainsResponseSchema, '§2.1: each chain has every field of the table');
      expectThat(chains.length > 0, '§4.4: GET /chains lists the supported chains', 'the list is empty', exchange);
    },
  },
  {
    id: 'chains.unique-ids',
    section: '4.4',
    title: 'each chain id appears once',
    mode: 'read-only',
    async run({ http }) {
      const { exchange, chains } = await listedChains(http);
      const ids = chains.map((chain) => chain.id);
      expectThat(new Set(ids).size === ids.length, '§4.4: a chain is listed once', `ids repeat: ${ids.join(', ')}`, exchange);
    },
  },
  {
    id: 'chains.explorer-path',
    section: '2.1',
    title: 'explorerPaths.transaction, where present, holds the {TX_HASH} placeholder',
    mode: 'read-only',
    async run({ http }) {
      const { exchange, chains } = await listedChains(http);
      const withPaths = chains.filter((chain) => chain.explorerPaths);
      expectThat(
        withPaths.every((chain) => chain.explorerPaths!.transaction.includes('{TX_HASH}')),
        '§2.1: explorerPaths.transaction is a template with {TX_HASH}',
        'a template lacks the placeholder',
        exchange,
      );
    },
  },
];
