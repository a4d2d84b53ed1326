import { describeQuirkFixtures } from './wire-quirks.test-helper.js';

// One fixture per quirk class (src/__fixtures__/quirks), each naming its public source.
describeQuirkFixtures('quirks');
