// A Vitest globalSetup with options: one simulator on chain 1 for the whole run.
import { intentsimGlobalSetup } from 'intentsim/vitest';

export default intentsimGlobalSetup({ chains: [{ id: 1 }] });
