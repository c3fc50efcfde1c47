import { SimulatorError } from './SimulatorError';

/** `POST /app-fees/{wallet}/claim`: nothing (or less than asked) is left to claim of that currency on that chain. */
export class InsufficientAppFeeBalanceError extends SimulatorError {
  constructor(message: string) {
    super('INSUFFICIENT_APP_FEE_BALANCE', 400, message);
  }
}

/** The claim named by a signature post does not exist (or is another wallet's). */
export class AppFeeClaimNotFoundError extends SimulatorError {
  constructor(claimId: string) {
    super('CLAIM_NOT_FOUND', 404, `No app fee claim with id ${claimId}`);
  }
}

/** The claim was signed (and paid, or is being paid) already: a claim pays once. */
export class AppFeeClaimAlreadySignedError extends SimulatorError {
  constructor(claimId: string, status: string) {
    super('CLAIM_ALREADY_SIGNED', 409, `app fee claim ${claimId} was signed already (status ${status}); ask for a new claim`);
  }
}

/** The claim's payment could not be sent, or reverted on chain; the amount is back in the balance. */
export class AppFeeClaimPaymentFailedError extends SimulatorError {
  constructor(claimId: string, txHash: string | null) {
    const what = txHash ? `reverted (${txHash})` : 'could not be sent';
    super('CLAIM_PAYMENT_FAILED', 400, `the payment of app fee claim ${claimId} ${what}; the amount is back in the balance`, { extraBody: { claimId, txHash } });
  }
}

/** The claim names a chain the simulator does not run. */
export class AppFeeClaimChainUnsupportedError extends SimulatorError {
  constructor(chainId: number) {
    super('UNSUPPORTED_CHAIN', 400, `chain ${chainId} is not supported by this simulator: app fees are claimed on a chain they were collected on`);
  }
}

/** The claim is debited and its payment sent (or signed), but its outcome is not known yet; it is settled later, at the latest at the next start. */
export class AppFeeClaimPaymentPendingError extends SimulatorError {
  constructor(claimId: string, txHash: string | null) {
    super('CLAIM_PAYMENT_PENDING', 409, `the payment of app fee claim ${claimId} is not confirmed yet${txHash ? ` (${txHash})` : ''}; the claim stays pending and is settled when the chain answers`, {
      extraBody: { claimId, txHash },
    });
  }
}
