import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { ChatTemplateError } from '../errors/chat-template-error.js';
import { type ProbeRenderInput, type ProbeRenderResult, renderProbes } from './render-probes.js';

const require = createRequire(import.meta.url);

/**
 * The child's source: reads its input as JSON on stdin, runs `renderProbes` from its own text with
 * the engine's CommonJS build, and writes the result as JSON on stdout.
 */
const childSource = (engine: string): string =>
  `const { Template } = require(${JSON.stringify(engine)});\n` +
  "let data = '';\nprocess.stdin.setEncoding('utf8');\n" +
  "process.stdin.on('data', (chunk) => { data += chunk; });\n" +
  `process.stdin.on('end', () => { process.stdout.write(JSON.stringify((${renderProbes.toString()})(Template, JSON.parse(data)))); });`;

/** Bounds of {@link renderProbesInChildProcess}. @internal */
interface RenderBounds {
  /** Wall-clock bound on the whole rendering, the process's start included. */
  readonly timeoutMs: number;
  /** The child's old-generation heap (`--max-old-space-size`), in MiB. */
  readonly maxHeapMb: number;
  /** Ends the rendering with the signal's reason. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Runs {@link renderProbes} in a child Node process with a bounded heap, killed once `timeoutMs`
 * passes or `signal` aborts, so a template that loops, recurses or allocates without end cannot
 * hang or exhaust the calling process. A child process rather than a worker thread: a worker's
 * `resourceLimits` do not hold for one large allocation (a `range(10**9)` list grown by `push`
 * aborts the whole process with a fatal out-of-memory error, nodejs/node#47224), while a child's
 * heap overflow ends only the child.
 *
 * @throws {ChatTemplateError} of failure `limit` (`time`, `memory` or `output`) when a bound ended
 *   the child, or `render` when the child failed on its own.
 * @throws the signal's reason when `signal` aborts.
 * @internal
 */
export function renderProbesInChildProcess(input: ProbeRenderInput, bounds: RenderBounds): Promise<ProbeRenderResult> {
  bounds.signal?.throwIfAborted();
  // What the child may write: every probe at its output bound, JSON-escaped (6 bytes a character at worst).
  const maxStdoutBytes = input.probes.length * input.maxOutputChars * 6 + 64 * 1024;
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [`--max-old-space-size=${Math.ceil(bounds.maxHeapMb)}`, '-e', childSource(require.resolve('@huggingface/jinja'))],
      { stdio: ['pipe', 'pipe', 'pipe'], env, windowsHide: true },
    );
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    let settled = false;
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      bounds.signal?.removeEventListener('abort', onAbort);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      outcome();
    };
    const limit = (bound: 'time' | 'memory' | 'output', detail: string): ChatTemplateError =>
      new ChatTemplateError({ failure: 'limit', limit: bound, probes: [{ probe: 'render', error: detail }] });
    const failed = (detail: string, cause?: unknown): ChatTemplateError =>
      new ChatTemplateError({ failure: 'render', probes: [{ probe: 'render', error: detail }], cause });
    const onAbort = (): void => settle(() => reject(bounds.signal?.reason));
    const timer = setTimeout(
      () => settle(() => reject(limit('time', `rendering took longer than ${bounds.timeoutMs} ms`))),
      bounds.timeoutMs,
    );
    bounds.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > maxStdoutBytes)
        settle(() => reject(limit('output', `the renderer wrote more than ${maxStdoutBytes} bytes`)));
      else stdout.push(chunk);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-4096);
    });
    child.stdin.on('error', () => undefined); // a child that died early: its exit says why
    child.once('error', (error) => settle(() => reject(failed(`the renderer did not start: ${error.message}`, error))));
    child.once('close', (code, signal) =>
      settle(() => {
        if (code === 0) {
          try {
            resolve(JSON.parse(Buffer.concat(stdout).toString('utf8')) as ProbeRenderResult);
          } catch (error) {
            reject(failed('the renderer wrote no result', error));
          }
        } else if (/heap out of memory|Allocation failed/i.test(stderr))
          reject(limit('memory', `rendering used more than ${bounds.maxHeapMb} MiB of heap`));
        else reject(failed(`the renderer exited with ${signal ?? `code ${code}`}: ${stderr.trim().split('\n').pop()}`));
      }),
    );
    child.stdin.end(JSON.stringify(input));
  });
}
