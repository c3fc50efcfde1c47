import { describeScenarioLibraryHalf } from '../support/scenarioLibrary';

describeScenarioLibraryHalf(1);
