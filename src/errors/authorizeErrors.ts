import { SimulatorError } from './SimulatorError';

/** A signature (app fee claim, nonce mapping) that does not recover to the wallet it names. */
export class InvalidSignatureError extends SimulatorError {
  constructor(message: string) {
    super('INVALID_SIGNATURE', 400, message);
  }
}

/** SPEC §9 2026-05-21: a version-1 nonce-mapping authorization (domain version "1", or no `depositor`). */
export class AuthorizationVersionUnsupportedError extends SimulatorError {
  constructor(message: string) {
    super('UNSUPPORTED_AUTHORIZATION_VERSION', 400, message);
  }
}

/** The wallet authorized this exchange nonce already: a nonce maps to one request, once. */
export class NonceAlreadyUsedError extends SimulatorError {
  constructor(wallet: string, nonce: bigint, requestId: string) {
    super('NONCE_ALREADY_USED', 409, `nonce ${nonce} of ${wallet} is already mapped (to request ${requestId}); sign a new nonce`, { extraBody: { requestId } });
  }
}
