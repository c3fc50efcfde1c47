import { globalTeardown } from './jest';

/** `globalTeardown: 'intentsim/jest/global-teardown'` in a Jest config. */
export default globalTeardown;
