import type { ChainKindFacts } from '../ChainKindFacts';

/** The EVM chains' facts (ChainKindFacts). */
export const EVM_KIND_FACTS: ChainKindFacts = {
  vmType: 'evm',
  recordNativeAddress: /^0x0{40}$/i,
  hasStablecoin: true,
  wrappedNative: { local: 'WETH', symbols: ['WETH', 'WMATIC', 'WPOL', 'WBNB'] },
  localCurrencies: 'their native currency, USDC and WETH',
  otherCurrencyDeposit: { forNative: { currency: 'USDC', amount: '30000000' }, forToken: { currency: 'native', amount: '10000000000000000' } },
  scenarioUser: 0,
  minesOnRequest: false,
  hasDepositAddresses: true,
  doubleSpendsDeposits: false,
  depositReorg: 'lost',
  wrongChainDepositChains: [1, 8453, 42161],
  countsDepositConfirmations: false,
  fork: { upstream: 'an EVM JSON-RPC URL', pinsBlock: true, journaled: true },
  clientServers: ['EVM JSON-RPC (HTTP and websocket)'],
};
