import { describeQuirkFixtures } from './wire-quirks.test-helper.js';

// Recordings written after the adapter was changed, from sources not used to build it
// (src/__fixtures__/holdout): the held-out measure of the quirk classes.
describeQuirkFixtures('holdout');
