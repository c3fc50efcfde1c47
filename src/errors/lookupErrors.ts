import { SimulatorError } from './SimulatorError';

/** A look-up named a chain this simulator does not run (the service's types give no code: `UNSUPPORTED_CHAIN`, as for quotes). */
export class LookupChainNotSupportedError extends SimulatorError {
  constructor(chainId: number | string, known: readonly number[]) {
    super('UNSUPPORTED_CHAIN', 400, `chain ${chainId} is not run by this simulator (chains: ${known.join(', ')})`);
  }
}

/** `POST /transactions/deposit-address/reindex` for an address no quote registered on that chain (404, as the service's types say). */
export class DepositAddressNotFoundError extends SimulatorError {
  constructor(chainId: number, address: string) {
    super('DEPOSIT_ADDRESS_NOT_FOUND', 404, `no deposit address ${address} was registered on chain ${chainId}`);
  }
}
