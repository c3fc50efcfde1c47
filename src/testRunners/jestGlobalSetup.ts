import { globalSetup } from './jest';

/** `globalSetup: 'intentsim/jest/global-setup'` in a Jest config. */
export default globalSetup;
