import type { ChainKindFacts } from '../ChainKindFacts';

/** The Bitcoin-style chain's facts (ChainKindFacts). */
export const BVM_KIND_FACTS: ChainKindFacts = {
  vmType: 'bvm',
  recordNativeAddress: /^bc1q{32}mql8k8$/,
  hasStablecoin: false,
  localCurrencies: 'BTC',
  scenarioUser: 'account:0',
  minesOnRequest: true,
  hasDepositAddresses: true,
  doubleSpendsDeposits: true,
  depositReorg: 'mempool',
  wrongChainDepositChains: [],
  countsDepositConfirmations: true,
  fork: { upstream: 'an Esplora API URL', pinsBlock: false, journaled: true },
  clientServers: ['Bitcoin JSON-RPC', 'Esplora REST API'],
};
