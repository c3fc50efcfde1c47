// Type-checked by tsc (nodenext) as CommonJS, then run: `require` gets the package's .d.cts types.
import intentsim = require('intentsim');
import jest = require('intentsim/jest');

type IsAny<T> = 0 extends 1 & T ? true : false;
const resolved: [IsAny<typeof intentsim.startSimulator>, IsAny<ReturnType<typeof jest.intentsimContext>>] = [false, false];
console.log(JSON.stringify({ startSimulator: typeof intentsim.startSimulator, globalSetup: typeof jest.globalSetup, resolved }));
