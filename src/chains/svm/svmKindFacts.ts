import type { ChainKindFacts } from '../ChainKindFacts';

/** The Solana chain's facts (ChainKindFacts). */
export const SVM_KIND_FACTS: ChainKindFacts = {
  vmType: 'svm',
  recordNativeAddress: /^1{32}$/,
  hasStablecoin: true,
  wrappedNative: { local: 'WSOL', symbols: ['WSOL'] },
  localCurrencies: 'SOL, USDC and WSOL',
  otherCurrencyDeposit: { forNative: { currency: 'USDC', amount: '30000000' }, forToken: { currency: 'native', amount: '100000000' } },
  scenarioUser: 'account:0',
  minesOnRequest: false,
  hasDepositAddresses: false,
  doubleSpendsDeposits: false,
  depositReorg: 'lost',
  wrongChainDepositChains: [],
  countsDepositConfirmations: false,
  fork: { upstream: 'a Solana JSON-RPC URL', pinsBlock: false, journaled: true },
  clientServers: ['Solana JSON-RPC', 'Solana websocket'],
};
