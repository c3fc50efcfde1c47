import type { ChainKindFacts } from '../ChainKindFacts';

/** The perpetuals exchange's facts (ChainKindFacts). */
export const LVM_KIND_FACTS: ChainKindFacts = {
  vmType: 'lvm',
  recordNativeAddress: /^0$/,
  hasStablecoin: true,
  localCurrencies: 'USDC',
  scenarioUser: 'account:0',
  minesOnRequest: false,
  hasDepositAddresses: true,
  doubleSpendsDeposits: false,
  depositReorg: 'none',
  wrongChainDepositChains: [],
  countsDepositConfirmations: false,
  fork: { upstream: 'a Lighter API URL', pinsBlock: false, journaled: true },
  clientServers: ['exchange HTTP API'],
};
