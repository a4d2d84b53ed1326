import { describe, expect, it } from 'vitest';
import { resolveReturnDirect } from './tool-control.js';
import { ToolResult } from './tool-result.js';

describe('ToolResult', () => {
  const mixed = ToolResult.fromContent([
    { type: 'text', text: 'line one' },
    { type: 'json', data: { a: 1 } },
    { type: 'image', mediaType: 'image/png', data: { kind: 'url', value: 'https://x/y.png' } },
    { type: 'file', name: 'r.pdf', mediaType: 'application/pdf', data: { kind: 'path', value: '/tmp/r.pdf' } },
  ]).withFollowUp({ type: 'text', text: 'FOLLOW' });

  it('renders every block for output(), JSON pretty-printed', () => {
    expect(mixed.output()).toBe('line one\n{\n  "a": 1\n}\n[image image/png]\n[file r.pdf (application/pdf)]');
  });

  it('skips JSON blocks in text()', () => {
    expect(mixed.text()).toBe('line one\n[image image/png]\n[file r.pdf (application/pdf)]');
  });

  it('never includes follow-up content in rendered output', () => {
    expect(mixed.output()).not.toContain('FOLLOW');
    expect(mixed.text()).not.toContain('FOLLOW');
    expect(mixed.outputForLlm(true)).not.toContain('FOLLOW');
  });

  it('uses markdown only when preferred and non-blank', () => {
    const result = ToolResult.successWithMarkdown('plain', '**rich**');
    expect(result.outputForLlm(true)).toBe('**rich**');
    expect(result.outputForLlm(false)).toBe('plain');
    expect(ToolResult.success('plain').withMarkdown('  \n').outputForLlm(true)).toBe('plain');
  });

  it('classifies errors', () => {
    expect(ToolResult.error('no').toJSON()).toEqual({ content: [{ type: 'text', text: 'no' }], isError: true });
    expect(ToolResult.retry('again').errorKind).toBe('retry');
    expect(ToolResult.failed('dead').errorKind).toBe('failed');
    expect(ToolResult.failed('dead').isError).toBe(true);
    expect(ToolResult.success('ok').isError).toBe(false);
  });

  it('is immutable: builders return new results', () => {
    const base = ToolResult.success('a');
    const more = base.withMetadata({ rows: 3 }).withImage('image/png', { kind: 'base64', value: 'AA==' });
    expect(base.metadata).toBeUndefined();
    expect(base.content).toHaveLength(1);
    expect(more.content).toHaveLength(2);
    expect(more.metadata).toEqual({ rows: 3 });
    expect(() => (base.content as unknown[]).push({})).toThrow();
  });

  it('merges control fields and keeps returnDirect tri-state', () => {
    const result = ToolResult.success('x').withGoto('end').withStateUpdate({ n: 1 });
    expect(result.control).toEqual({ goto: 'end', stateUpdate: { n: 1 } });
    expect(resolveReturnDirect(result.control, true)).toBe(true);
    expect(resolveReturnDirect(result.returnDirect(false).control, true)).toBe(false);
    expect(resolveReturnDirect(result.returnDirect().control, false)).toBe(true);
    expect(ToolResult.success('x').terminate().control).toEqual({ terminate: true });
  });

  it('round-trips through JSON and omits an empty followUp', () => {
    const result = ToolResult.retry('fix it').withMetadata({ trace: 'abc' }).withMarkdown('# m').withGoto('model');
    const json = JSON.parse(JSON.stringify(result));
    expect(json.followUp).toBeUndefined();
    const back = ToolResult.fromJSON(json);
    expect(back.toJSON()).toEqual(result.toJSON());
    expect(ToolResult.isInstance(back)).toBe(true);
    expect(ToolResult.fromJSON(JSON.parse(JSON.stringify(mixed))).followUp).toEqual([{ type: 'text', text: 'FOLLOW' }]);
  });

  it('refuses malformed JSON with a message naming the field', () => {
    expect(() => ToolResult.fromJSON(null)).toThrow(/must be an object/);
    expect(() => ToolResult.fromJSON({ content: 'x' })).toThrow(/`content`/);
    expect(() => ToolResult.fromJSON({ content: [{ type: 'image', mediaType: 'x' }] })).toThrow(/`content`/);
    expect(() => ToolResult.fromJSON({ content: [], errorKind: 'maybe' })).toThrow(/errorKind/);
    expect(() => ToolResult.fromJSON({ content: [], isError: 'yes' })).toThrow(/isError/);
  });

  it('is recognised across copies by its global marker only', () => {
    expect(ToolResult.isInstance({ content: [], isError: false })).toBe(false);
    expect(ToolResult.isInstance({ [Symbol.for('tiny.ToolResult')]: true })).toBe(true);
  });
});
