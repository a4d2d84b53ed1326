import { runMcpFilesystemExample } from './run-example.js';

await runMcpFilesystemExample();
