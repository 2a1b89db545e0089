/**
 * Templates of workflow definitions: a template is read once and rendered many
 * times, so each rendering must see its own scope and nothing of an earlier one.
 */
import { describe, expect, it } from 'vitest';
import { render, renderText } from '../src/workflows/template.js';

const scope = (tag: string, value: unknown) => ({
  input: { tag },
  steps: { fetch: { output: { body: { value } } } },
});

describe('templates', () => {
  it('renders the same template object with each run’s own scope', () => {
    const template = {
      url: 'http://upstream/{{ input.tag }}/x',
      body: { tag: '{{input.tag}}', value: '{{steps.fetch.output.body.value}}', fixed: 3 },
      list: ['{{input.tag}}', 'plain', { deep: 'a {{ steps.fetch.output.body.value }} b' }],
    };
    expect(render(template, scope('one', 1))).toEqual({
      url: 'http://upstream/one/x',
      body: { tag: 'one', value: 1, fixed: 3 },
      list: ['one', 'plain', { deep: 'a 1 b' }],
    });
    expect(render(template, scope('two', { n: 2 }))).toEqual({
      url: 'http://upstream/two/x',
      body: { tag: 'two', value: { n: 2 }, fixed: 3 },
      list: ['two', 'plain', { deep: 'a {"n":2} b' }],
    });
  });

  it('keeps a whole placeholder’s type, renders a missing value as null or empty text', () => {
    expect(render('{{steps.fetch.output.body}}', scope('t', [1, 2]))).toEqual({ value: [1, 2] });
    expect(render('{{steps.nope.output}}', scope('t', 1))).toBeNull();
    expect(render('x{{steps.nope.output}}y', scope('t', 1))).toBe('xy');
    expect(renderText('Tag: {{input.tag}}, missing: [{{input.none}}]', scope('t', 1))).toBe(
      'Tag: t, missing: []',
    );
  });

  it('reads only own properties, and a "__proto__" key stays a plain key', () => {
    expect(render('{{input.constructor}}', scope('t', 1))).toBeNull();
    const template = JSON.parse('{"__proto__": "{{input.tag}}", "a": 1}');
    const rendered = render(template, scope('t', 1)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(rendered)).toBe(Object.prototype);
    expect(Object.hasOwn(rendered, '__proto__')).toBe(true);
    expect(rendered.a).toBe(1);
  });
});
