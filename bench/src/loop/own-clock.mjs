// Accounts for the time the scripted model and the tool spend in their own bodies, so it can be
// subtracted from a run's total: what remains is the framework's overhead.
import { nowUs } from '../stats.mjs';

/** A counter of microseconds spent inside model and tool bodies during one run. */
export function createOwnClock() {
  const clock = {
    us: 0,
    /** Runs `body` and adds its duration to the clock. */
    time(body) {
      const started = nowUs();
      const value = body();
      clock.us += nowUs() - started;
      return value;
    },
  };
  return clock;
}

let turnListener;

/** Sets (or clears) a listener called with the turn number on every scripted model call. */
export function onTurn(listener) {
  turnListener = listener;
}

/** Called by each scripted model with the turn it is answering. */
export function reportTurn(turn) {
  if (turnListener !== undefined) turnListener(turn);
}
