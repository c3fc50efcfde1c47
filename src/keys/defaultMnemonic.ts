/** Anvil's own default mnemonic: the ten test accounts are the ones every Foundry user knows. */
export const DEFAULT_MNEMONIC = 'test test test test test test test test test test test junk';
