import { runRoundTrip } from './round-trip.js';

await runRoundTrip();
