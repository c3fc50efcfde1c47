import { ChainError } from '../../errors/IntentsimError';
import type { LvmLedger } from '../../nodes/lvm';
import type { ExchangeAccountChange, ExchangeAccountControls, ExchangeAccountState } from '../capabilities/ExchangeAccountControls';
import { LVM_ACCOUNT_INDEX } from './LvmUserWallet';

/**
 * The exchange chain's account faults, on its ledger: pause an account (its transfers, sent or
 * received, refused with `ACCOUNT_PAUSED`), revoke its API key (`INVALID_API_KEY`), set its
 * collateral (a transfer above it is `INSUFFICIENT_BALANCE`). The ledger journals each change.
 */
export class LvmAccountControls implements ExchangeAccountControls {
  constructor(private readonly deps: { chainId: number; ledger: LvmLedger }) {}

  setAccount(account: string, change: ExchangeAccountChange): ExchangeAccountState {
    if (!LVM_ACCOUNT_INDEX.test(account)) throw new ChainError(`chain ${this.deps.chainId}: ${account} is not an account index`);
    const changed = this.deps.ledger.controlAccount(Number(account), change);
    return { account: String(changed.index), paused: changed.paused, apiKeyRevoked: changed.apiKeyRevoked, collateral: changed.collateral };
  }
}
