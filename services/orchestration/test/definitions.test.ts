import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase, SettingsError } from '@xv/platform';
import { buildService } from '@xv/platform/service';
import { tempDir } from '@xv/platform/testing';
import { describe, expect, it } from 'vitest';
import { orchestrationService } from '../src/service.js';
import { workflowFolder } from './helpers.js';

const good = {
  name: 'good-flow',
  description: 'A valid workflow.',
  input: { properties: { q: { type: 'string' } }, required: ['q'] },
  steps: [{ id: 'ask', type: 'ai', prompt: '{{input.q}}' }],
};

async function startupError(env: Record<string, string>): Promise<Error> {
  const database = await openDatabase({ service: 'orchestration', dataDir: tempDir() });
  try {
    await buildService(orchestrationService, { database, env: { XV_LOG_LEVEL: 'silent', ...env } });
  } catch (error) {
    return error as Error;
  } finally {
    await database.close();
  }
  throw new Error('expected start-up to fail');
}

describe('workflow definitions', () => {
  it.each([
    [
      'an unknown connector',
      { ...good, steps: [good.steps[0], { id: 'send', type: 'connector', connector: 'smtp', with: {} }] },
      'steps.1.connector',
    ],
    [
      'a step of an unknown type',
      { ...good, steps: [{ id: 'x', type: 'shell', run: 'rm -rf /' }] },
      'steps.0.type',
    ],
    ['a duplicate step id', { ...good, steps: [good.steps[0], good.steps[0]] }, 'steps.1.id'],
    [
      'a reference to a later step',
      {
        ...good,
        steps: [
          { id: 'a', type: 'ai', prompt: '{{steps.b.output}}' },
          { id: 'b', type: 'ai', prompt: 'hi' },
        ],
      },
      'steps.0.prompt',
    ],
    [
      'a reference to an undeclared input',
      { ...good, steps: [{ id: 'a', type: 'ai', prompt: '{{input.nope}}' }] },
      'steps.0.prompt',
    ],
    [
      'a required field that is not a property',
      { ...good, input: { properties: {}, required: ['q'] } },
      'input.required.0',
    ],
    [
      'a bad retry policy',
      { ...good, steps: [{ ...good.steps[0], retry: { attempts: 0 } }] },
      'steps.0.retry.attempts',
    ],
    ['an unknown tier', { ...good, steps: [{ ...good.steps[0], tier: 'turbo' }] }, 'steps.0.tier'],
    [
      'a missing description',
      { name: 'no-description', input: good.input, steps: good.steps },
      'description',
    ],
  ])('stops start-up on %s, naming the file and the path', async (_, definition, path) => {
    const folder = workflowFolder([definition]);
    const error = await startupError({ XV_WORKFLOWS_DIR: folder });
    expect(error).toBeInstanceOf(SettingsError);
    expect(error.message).toContain(join(folder, `${definition.name}.yaml`));
    expect(error.message).toContain(`${path}:`);
  });

  it('stops start-up on a file that is not YAML, and on a name defined twice', async () => {
    const folder = tempDir();
    writeFileSync(join(folder, 'broken.yaml'), 'name: [unclosed');
    expect((await startupError({ XV_WORKFLOWS_DIR: folder })).message).toContain('broken.yaml: (file)');
    const twice = tempDir();
    writeFileSync(join(twice, 'a.json'), JSON.stringify(good));
    writeFileSync(join(twice, 'b.yaml'), JSON.stringify(good));
    expect((await startupError({ XV_WORKFLOWS_DIR: twice })).message).toMatch(
      /b\.yaml: name: "good-flow" is already defined/,
    );
  });

  it('reads router tiers from a YAML settings file and names the setting when it is wrong', async () => {
    const folder = tempDir();
    writeFileSync(join(folder, 'tiers.yaml'), 'balanced:\n  models: ["not a reference"]\n');
    const error = await startupError({ XV_ROUTER_TIERS_FILE: join(folder, 'tiers.yaml') });
    expect(error.message).toContain('XV_ROUTER_TIERS_FILE');
    expect(error.message).toContain('balanced.models.0');
    writeFileSync(join(folder, 'ok.yaml'), 'fast:\n  label: Snappy\n  models: ["openai-compatible:small"]\n');
    const database = await openDatabase({ service: 'orchestration', dataDir: tempDir() });
    const built = await buildService(orchestrationService, {
      database,
      env: { XV_LOG_LEVEL: 'silent', XV_ROUTER_TIERS_FILE: join(folder, 'ok.yaml') },
    });
    await built.close();
    await database.close();
  });
});
