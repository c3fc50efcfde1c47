import { SimulatorError } from '../../errors/SimulatorError';

/**
 * What this chain does not simulate (deposit addresses, fixture contracts, a mempool, forks):
 * the caller asked for it, so it is a 400 with an errorCode, never a 500.
 */
export class SvmCheatNotSupportedError extends SimulatorError {
  constructor(message: string) {
    super('UNSUPPORTED_ON_CHAIN', 400, message);
  }
}
