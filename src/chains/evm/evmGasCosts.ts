import type { Currency } from '../../domain/chain/currency';
import type { DestinationAction } from '../../domain/quote/planRoute';
import type { ChainGasCosts } from '../ChainAdapter';
import { fillGasUnits } from './calibrateGas';
import type { StartedEvmChain } from './startEvmChain';

/** An EVM chain's gas costs: the calibrated gas units of each kind at the chain's effective gas price. */
export function evmGasCosts(parts: () => StartedEvmChain): ChainGasCosts {
  const ofGasUnits = (gasUnits: bigint): { amount: bigint; currency: Currency } => ({ amount: gasUnits * parts().effectiveGasPrice(), currency: parts().nativeCurrency });
  return {
    ofGasUnits,
    fill: (currency: Currency, action: DestinationAction['kind'] = 'transfer') => ofGasUnits(fillGasUnits(parts().gas, currency, action)),
    refund: (currency: Currency) => ofGasUnits(currency.isNative ? parts().gas.refundNative : parts().gas.refundErc20),
    deposit: (currency: Currency, needsApproval: boolean) => {
      const { gas } = parts();
      return ofGasUnits((currency.isNative ? gas.depositNative : gas.depositErc20) + (needsApproval ? gas.approve : 0n)).amount;
    },
  };
}
