import { describe, expect, it } from 'vitest';
import { defineTool } from '../tool/define-tool.js';
import { validateToolArguments } from '../tool/validate-tool-arguments.js';
import { checkSchema, createValidator, SchemaCompileFailure } from './create-validator.js';

const form = () => ({
  type: 'object',
  properties: { text: { type: 'string', format: 'textarea' }, to: { type: 'string', format: 'email' } },
  required: ['text'],
});

describe("unknownFormats: 'refuse' (default) or 'annotate'", () => {
  it('refuses an unknown format by default, naming the option', () => {
    let caught: unknown;
    try {
      createValidator(form());
    } catch (error) {
      caught = error;
    }
    expect(SchemaCompileFailure.isInstance(caught)).toBe(true);
    expect((caught as SchemaCompileFailure).format).toBe('textarea');
    expect((caught as SchemaCompileFailure).message).toContain("unknownFormats: 'annotate'");
    expect(() => checkSchema(form(), { unknownFormats: 'refuse' })).toThrow(/unknown format "textarea"/);
  });

  it("with 'annotate' accepts it unchecked and still enforces known formats", () => {
    const validator = createValidator(form(), { unknownFormats: 'annotate' });
    expect(validator.validate({ text: '' }).ok).toBe(true);
    expect(validator.validate({ text: 'x', to: 'a@example.com' }).ok).toBe(true);
    expect(validator.validate({ text: 'x', to: 'nope' })).toEqual({
      ok: false,
      issues: [{ path: '/to', keyword: 'format', message: 'must match format "email"' }],
    });
    expect(validator.validate({ text: 3 }).ok).toBe(false);
  });

  it('keeps the modes apart: the same schema text stays refused without the option', () => {
    const annotated = form();
    checkSchema(annotated, { unknownFormats: 'annotate' });
    // The same object keeps its choice (a tool's validation at each call passes no option)...
    expect(createValidator(annotated).validate({ text: 'x' }).ok).toBe(true);
    // ...an explicit 'refuse' does not reuse it, and another object with the same JSON is refused.
    expect(() => createValidator(annotated, { unknownFormats: 'refuse' })).toThrow(SchemaCompileFailure);
    expect(() => createValidator(form())).toThrow(SchemaCompileFailure);
  });

  it('is a defineTool option: the tool is defined and its calls validated with it', () => {
    expect(() => defineTool({ name: 'note', description: 'd', parameters: form(), execute: () => 'ok' })).toThrow(
      /unknown format "textarea"/,
    );
    const tool = defineTool({
      name: 'note',
      description: 'd',
      parameters: form(),
      unknownFormats: 'annotate',
      execute: () => 'ok',
    });
    expect('unknownFormats' in tool).toBe(false);
    expect(validateToolArguments(tool, { text: 'anything' })).toMatchObject({ ok: true });
    expect(validateToolArguments(tool, { text: 'x', to: 'nope' })).toMatchObject({ ok: false });
    expect(() =>
      defineTool({
        name: 'note',
        description: 'd',
        parameters: form(),
        unknownFormats: 'ignore' as 'annotate',
        execute: () => 'ok',
      }),
    ).toThrow(/unknownFormats/);
  });
});
