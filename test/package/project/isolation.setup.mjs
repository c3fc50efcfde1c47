// The Vitest globalSetup of the isolation projects: one simulator on chains 1 and 8453 for the run.
import { intentsimGlobalSetup } from 'intentsim/vitest';

export default intentsimGlobalSetup({ chains: [{ id: 1 }, { id: 8453 }] });
