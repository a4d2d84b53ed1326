// Resumes a serialised run state in a separate process and prints the outcome as JSON.
import { readFileSync } from 'node:fs';
import { DeferredToolResults } from '@tiny/harness';
import { createScenario } from './resume-scenario.mjs';

const [stateFile, decisionsFile] = process.argv.slice(2);
const { harness, ledger } = createScenario({ resumed: true });
const results = DeferredToolResults.fromJSON(JSON.parse(readFileSync(decisionsFile, 'utf8')));
const run = await harness.resumeDeferred({}, readFileSync(stateFile, 'utf8'), results);
console.log(JSON.stringify({ outcome: run.outcome, text: run.text, ledger, messages: run.messages, toolCalls: run.toolCalls }));
