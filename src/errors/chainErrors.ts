import { SimulatorError } from './SimulatorError';

/**
 * What a chain does not simulate or its kind does not have (contracts on the exchange, a mempool
 * on the SVM chain, reorgs on the BVM chain, a gasless relayer off the EVM chains): the caller
 * asked for it, so it is a 400 `UNSUPPORTED_ON_CHAIN` naming the chain and why, never a 500. One
 * class for every VM's adapter.
 */
export class UnsupportedOnChainError extends SimulatorError {
  constructor(message: string) {
    super('UNSUPPORTED_ON_CHAIN', 400, message);
  }
}
