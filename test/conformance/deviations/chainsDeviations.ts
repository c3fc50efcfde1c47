import type { Deviation } from '../deviationProxy';

/** Changes the first chain of `GET /chains`. */
function firstChain(change: (chain: Record<string, unknown>) => void): Deviation['response'] {
  return (request, response) => {
    if (request.path !== '/chains' || response.status !== 200) return undefined;
    const body = structuredClone(response.body) as { chains: Array<Record<string, unknown>> };
    change(body.chains[0]!);
    return { body };
  };
}

export const chainsDeviations: readonly Deviation[] = [
  { name: 'a chain id as a string', section: '2.1', response: firstChain((chain) => void (chain.id = String(chain.id))) },
  { name: 'a chain without solverAddresses', section: '2.1', response: firstChain((chain) => void delete chain.solverAddresses) },
  { name: 'depositEnabled as "yes"', section: '2.1', response: firstChain((chain) => void (chain.depositEnabled = 'yes')) },
];
