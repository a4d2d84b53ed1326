import { describeAnswerClasses, describeHeaderSecrets, describeSpliceClasses } from '@tiny/provider-tests';
import { createOpenAIResponses } from './create-openai-responses.js';

// The shared adapter suites of @tiny/provider-tests (issue 34, WIRE-3), each over a real 127.0.0.1
// server, with the Responses API's own wire forms: the response object and the streaming events of
// the OpenAI API reference (Responses create, streaming events), as in the recorded traffic under
// __fixtures__/responses (vercel/ai@ed857f50f112e23930b0c2dd8d532cc8bebbc911).

const create = (settings: Parameters<typeof createOpenAIResponses>[0]) => createOpenAIResponses(settings)('gpt-5.1');

const sse = (...events: Record<string, unknown>[]) =>
  events.map((data) => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`).join('');
const created = (id = 'resp_1') => ({
  type: 'response.created',
  response: { id, object: 'response', status: 'in_progress', model: 'gpt-5.1', output: [] },
});
const call = (index: number, callId: string, args: string) => [
  {
    type: 'response.output_item.added',
    output_index: index,
    item: {
      id: `fc_${index}`,
      type: 'function_call',
      status: 'in_progress',
      arguments: '',
      call_id: callId,
      name: 'bash',
    },
  },
  { type: 'response.function_call_arguments.delta', output_index: index, item_id: `fc_${index}`, delta: args },
  {
    type: 'response.output_item.done',
    output_index: index,
    item: {
      id: `fc_${index}`,
      type: 'function_call',
      status: 'completed',
      arguments: args,
      call_id: callId,
      name: 'bash',
    },
  },
];
const completed = (id = 'resp_1') => ({
  type: 'response.completed',
  response: { id, object: 'response', status: 'completed', usage: { input_tokens: 9, output_tokens: 5 } },
});
const numbered = (events: Record<string, unknown>[]) =>
  events.map((event, index) => ({ ...event, sequence_number: index }));
const functionCall = (callId: string, args: string) => ({
  id: `fc_${callId}`,
  type: 'function_call',
  status: 'completed',
  arguments: args,
  call_id: callId,
  name: 'bash',
});

describeHeaderSecrets({
  name: 'Responses API: header secrets never reach an error',
  create,
});

describeAnswerClasses({
  name: 'Responses API answers that are no response',
  create,
  wire: {
    emptyAnswer: { id: 'resp_1', object: 'response', status: 'completed', model: 'gpt-5.1', output: [], usage: {} },
    twoCallsOneId: {
      id: 'resp_1',
      object: 'response',
      status: 'completed',
      model: 'gpt-5.1',
      output: [functionCall('x', '{"cmd":"ls"}'), { ...functionCall('x', '{"cmd":"rm"}'), id: 'fc_y' }],
      usage: {},
    },
    overloadedErrorEvent: `${sse(created())}data: ${JSON.stringify({ error: { type: 'overloaded_error', message: 'Overloaded' } })}\n\n`,
  },
});

describeSpliceClasses({
  name: 'Responses API splice classes fail closed',
  create,
  wire: {
    // A second item at output_index 0 after the first was done.
    slotReused: sse(
      ...numbered([
        created(),
        ...call(0, 'call_A', '{"cmd":"ls"}'),
        ...call(0, 'call_B', '{"cmd":"rm -rf ~"}'),
        completed(),
      ]),
    ),
    // Two function calls under one call_id.
    oneIdTwoCalls: sse(
      ...numbered([created(), ...call(0, 'call_A', '{"cmd":"ls"}'), ...call(1, 'call_A', '{"cmd":"rm"}'), completed()]),
    ),
    // Events of another response inside this one.
    identityBreak: sse(
      ...numbered([
        created(),
        ...call(0, 'call_A', '{"cmd":"ls"}'),
        ...call(1, 'call_B', '{"cmd":"rm"}'),
        completed('resp_2'),
      ]),
    ),
    moreViolations: {
      'a sequence_number that goes back': sse(
        ...numbered([created(), ...call(0, 'call_A', '{"cmd":"ls"}')]),
        ...call(1, 'call_B', '{"cmd":"rm"}').map((event) => ({ ...event, sequence_number: 1 })),
        { ...completed(), sequence_number: 9 },
      ),
      'an output_index below one already started': sse(
        ...numbered([
          created(),
          ...call(2, 'call_A', '{"cmd":"ls"}'),
          ...call(1, 'call_B', '{"cmd":"rm"}'),
          completed(),
        ]),
      ),
      'arguments for an item that is not open': sse(
        ...numbered([
          created(),
          ...call(0, 'call_A', '{"cmd":"ls"}'),
          { type: 'response.function_call_arguments.delta', output_index: 0, item_id: 'fc_0', delta: '{"cmd":"rm"}' },
          completed(),
        ]),
      ),
      'a second response.created': sse(
        ...numbered([
          created(),
          ...call(0, 'call_A', '{"cmd":"l'),
          created('resp_2'),
          ...call(1, 'call_B', '{"cmd":"rm"}'),
          completed('resp_2'),
        ]),
      ),
    },
    clean: {
      'no sequence numbers (local servers), gaps in output_index, distinct call ids': {
        body: sse(created(), ...call(1, 'call_A', '{"cmd":"ls"}'), ...call(3, 'call_B', '{}'), completed()),
        calls: [
          { id: 'call_A', name: 'bash', arguments: { cmd: 'ls' } },
          { id: 'call_B', name: 'bash', arguments: {} },
        ],
      },
    },
  },
});
