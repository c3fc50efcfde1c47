import { describeScenarioLibraryHalf } from '../support/scenarioLibrary';

describeScenarioLibraryHalf(0);
