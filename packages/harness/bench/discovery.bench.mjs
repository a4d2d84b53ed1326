// Discovery benchmark: a 200-tool registry (10 direct, 190 deferred across 12 integrations).
// Measures the schema bytes of the first request with and without discovery (direct + bridge vs
// all 200 schemas), the bytes after one search promotes its matches, and tool_search latency
// (median / p95) over realistic queries.
// Run: node bench/discovery.bench.mjs            (after pnpm build; uses ../dist/index.js)
//      node bench/discovery.bench.mjs <module>   (any ESM module exporting createDiscoverySession)
import { pathToFileURL } from 'node:url';

const target = process.argv[2] ? pathToFileURL(process.argv[2]).href : '../dist/index.js';
const { createDiscoverySession } = await import(target);
if (typeof createDiscoverySession !== 'function') {
  throw new Error(`${target} does not export createDiscoverySession (build @tiny/harness first)`);
}

const bytes = (value) => Buffer.byteLength(JSON.stringify(value));

// ----- a realistic registry -----
const integrations = {
  github: ['repository', 'issue', 'pull_request', 'branch', 'release', 'workflow_run', 'gist', 'commit'],
  slack: ['channel', 'message', 'user', 'reminder', 'file', 'reaction'],
  calendar: ['event', 'calendar', 'attendee', 'availability'],
  gmail: ['email', 'draft', 'label', 'thread', 'attachment'],
  jira: ['ticket', 'sprint', 'board', 'comment', 'worklog'],
  notion: ['page', 'database', 'block', 'comment'],
  salesforce: ['lead', 'opportunity', 'account', 'contact', 'case'],
  stripe: ['customer', 'invoice', 'payment', 'refund', 'subscription'],
  postgres: ['table', 'query', 'index', 'schema'],
  aws: ['bucket', 'instance', 'lambda_function', 'log_group', 'alarm'],
  drive: ['document', 'folder', 'spreadsheet', 'permission'],
  zendesk: ['ticket', 'macro', 'organization', 'satisfaction_rating'],
};
const verbs = ['list', 'get', 'create', 'update', 'delete', 'search'];
const verbText = {
  list: 'Lists every',
  get: 'Fetches one',
  create: 'Creates a new',
  update: 'Updates an existing',
  delete: 'Permanently deletes a',
  search: 'Searches for a',
};

function schemaFor(family, verb, noun) {
  const properties = {};
  const required = [];
  const words = noun.replace(/_/g, ' ');
  if (verb !== 'create' && verb !== 'list' && verb !== 'search') {
    properties[`${noun}_id`] = {
      type: 'string',
      description: `The identifier of the ${words}, as returned by list or search.`,
    };
    required.push(`${noun}_id`);
  }
  if (verb === 'search') {
    properties.query = { type: 'string', description: `Free-text query matched against the ${words} title and body.` };
    required.push('query');
  }
  if (verb === 'list' || verb === 'search') {
    properties.limit = {
      type: 'integer',
      minimum: 1,
      maximum: 100,
      description: 'Maximum number of results to return.',
    };
    properties.cursor = { type: 'string', description: 'Opaque pagination cursor from a previous response.' };
    properties.sort = {
      type: 'string',
      enum: ['created', 'updated', 'name'],
      description: 'Sort order of the results.',
    };
  }
  if (verb === 'create' || verb === 'update') {
    properties.title = { type: 'string', description: `Title or name of the ${words}.` };
    properties.body = { type: 'string', description: `Main content of the ${words}, markdown allowed.` };
    properties.labels = { type: 'array', items: { type: 'string' }, description: 'Labels or tags to attach.' };
    properties.metadata = {
      type: 'object',
      description: 'Extra fields stored with the record.',
      properties: {
        owner: { type: 'string', description: 'Email of the owning user.' },
        visibility: { type: 'string', enum: ['private', 'team', 'public'] },
      },
    };
    if (verb === 'create') required.push('title');
  }
  properties.workspace = { type: 'string', description: `The ${family} workspace or account to act in.` };
  return { type: 'object', properties, required, additionalProperties: false };
}

const tools = [];
for (const [family, nouns] of Object.entries(integrations)) {
  for (const noun of nouns) {
    for (const verb of verbs) {
      const name = `${family}_${verb}_${noun}`;
      const words = noun.replace(/_/g, ' ');
      tools.push({
        name,
        family,
        description:
          `${verbText[verb]} ${words} in ${family[0].toUpperCase()}${family.slice(1)}. ` +
          `Use it when the user asks to ${verb} a ${words}; results include ids usable by the other ${family} tools.`,
        parameters: schemaFor(family, verb, noun),
      });
    }
  }
}
// 10 direct tools: the everyday ones; the other 190 are deferred, picked round-robin across
// integrations so every family is represented.
const directNames = new Set([
  'gmail_search_email',
  'gmail_create_draft',
  'calendar_list_event',
  'calendar_create_event',
  'slack_create_message',
  'slack_search_message',
  'drive_search_document',
  'drive_get_document',
  'github_search_issue',
  'jira_search_ticket',
]);
const byFamily = new Map();
for (const tool of tools) {
  if (directNames.has(tool.name)) continue;
  if (!byFamily.has(tool.family)) byFamily.set(tool.family, []);
  byFamily.get(tool.family).push(tool);
}
const picked = tools.filter((tool) => directNames.has(tool.name));
if (picked.length !== directNames.size) throw new Error('a direct tool is missing');
for (let index = 0; picked.length < 200; index += 1) {
  for (const list of byFamily.values()) if (index < list.length && picked.length < 200) picked.push(list[index]);
}
const all = picked.sort((a, b) => (a.name < b.name ? -1 : 1));
const schema = ({ name, description, parameters }) => ({ name, description, parameters });
const direct = all.filter((tool) => directNames.has(tool.name)).map(schema);
const deferred = all.filter((tool) => !directNames.has(tool.name));

// ----- schema bytes -----
const session = createDiscoverySession({ deferred });
const without = bytes(all.map(schema));
const firstRequest = session.requestSchemas(direct);
const withDiscovery = bytes(firstRequest);
const advertised = session.advertise(direct);
const searchBytes = bytes(session.bridgeSchemas()[0]);

const queries = [
  'refund a stripe payment',
  'open a pull request on github',
  'find salesforce leads for a company',
  'restart an aws instance',
  'add a comment to a jira ticket',
  'share a google drive folder',
  'list lambda functions',
  'invite an attendee to a meeting',
  'query a postgres table',
  'cancel a subscription',
  'create a notion page',
  'delete a slack reminder',
  'search zendesk tickets about billing',
  'create a github release',
  'list invoices for a customer',
  'update an opportunity stage',
  'get the log group for an alarm',
  'add a reaction to a message',
  'download an email attachment',
  'merge a branch',
];
const promotedSession = createDiscoverySession({ deferred });
const first = await promotedSession.search({ query: queries[0] });
const secondRequest = bytes(promotedSession.requestSchemas(direct));

// ----- search latency -----
const samples = [];
const latencySession = createDiscoverySession({ deferred });
for (let warm = 0; warm < 50; warm += 1) await latencySession.search({ query: queries[warm % queries.length] });
let matchedTotal = 0;
for (let round = 0; round < 50; round += 1) {
  for (const query of queries) {
    const started = performance.now();
    const outcome = await latencySession.search({ query });
    samples.push(performance.now() - started);
    matchedTotal += outcome.matched.length;
  }
}
samples.sort((a, b) => a - b);
const quantile = (q) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];

const percent = (after, before) => `${(100 * (1 - after / before)).toFixed(1)} %`;
console.log(`registry: ${all.length} tools (${direct.length} direct, ${deferred.length} deferred)`);
console.log(`first request, all ${all.length} schemas:        ${without.toLocaleString('en')} B`);
console.log(
  `first request, direct + bridge:     ${withDiscovery.toLocaleString('en')} B  (${percent(withDiscovery, without)} fewer; tools_advertised.schemaBytes ${advertised.schemaBytes.toLocaleString('en')})`,
);
console.log(`  of which tool_search (usage + manifest): ${searchBytes.toLocaleString('en')} B`);
console.log(
  `after one search promoting ${first.matched.length} tools:  ${secondRequest.toLocaleString('en')} B  (${percent(secondRequest, without)} fewer)`,
);
console.log(
  `tool_search latency over ${samples.length} searches (${queries.length} queries): median ${quantile(0.5).toFixed(3)} ms, p95 ${quantile(0.95).toFixed(3)} ms, max ${samples.at(-1).toFixed(3)} ms; ${(matchedTotal / samples.length).toFixed(1)} matches/search`,
);
console.log(`sample: "${queries[0]}" -> ${first.matched.join(', ')}`);
