/**
 * @module workflows/registry
 * The registered workflows: every `*.json`, `*.yaml` and `*.yml` file of the
 * built-in folder (`services/orchestration/workflows/`) and of `XV_WORKFLOWS_DIR`,
 * read and checked once at start. A bad definition stops start-up with a message
 * naming its file and the faulty path (`steps.1.connector: unknown connector …`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SettingsError } from '@xv/platform';
import { parse as parseYaml } from 'yaml';
import type { Connectors } from './connectors/index.js';
import { type WorkflowSpec, workflowSpec } from './definition.js';
import { type InputValidator, inputValidator } from './input.js';
import { type InputCheck, stepChecks } from './step-checks.js';
import { referencesIn } from './template.js';

export const BUILT_IN_WORKFLOWS_DIR = fileURLToPath(new URL('../../workflows/', import.meta.url));

const DEFINITION_FILE = /\.(json|ya?ml)$/i;

export interface Workflow {
  spec: WorkflowSpec;
  file: string;
  validateInput: InputValidator;
  /** Checks a validated input against the connector steps it feeds (see `step-checks.ts`). */
  checkSteps: InputCheck;
  /** A step creates a lead: a run needs the bot challenge when one is on. */
  needsBotChallenge: boolean;
}

export type WorkflowRegistry = ReadonlyMap<string, Workflow>;

/** A bad workflow definition; like a bad setting, it stops start-up. */
export class WorkflowDefinitionError extends SettingsError {
  constructor(file: string, path: string, message: string) {
    super([{ env: file, message: `${path}: ${message}` }]);
    this.name = 'WorkflowDefinitionError';
    this.message = `Invalid workflow definition in ${file}: ${path}: ${message}`;
  }
}

export function loadWorkflows(folders: readonly string[], connectors: Connectors): WorkflowRegistry {
  const registry = new Map<string, Workflow>();
  for (const folder of folders) {
    let names: string[];
    try {
      names = readdirSync(folder)
        .filter((n) => DEFINITION_FILE.test(n))
        .sort();
    } catch {
      throw new WorkflowDefinitionError(resolve(folder), '(folder)', 'cannot be read');
    }
    for (const name of names) {
      const file = resolve(join(folder, name));
      const spec = readDefinition(file, connectors);
      const existing = registry.get(spec.name);
      if (existing) {
        throw new WorkflowDefinitionError(
          file,
          'name',
          `"${spec.name}" is already defined in ${existing.file}`,
        );
      }
      registry.set(spec.name, {
        spec,
        file,
        validateInput: inputValidator(spec.input),
        checkSteps: stepChecks(spec, connectors),
        needsBotChallenge: spec.steps.some(
          (step) => step.type === 'connector' && connectors.get(step.connector)?.needsBotChallenge === true,
        ),
      });
    }
  }
  return registry;
}

function readDefinition(file: string, connectors: Connectors): WorkflowSpec {
  let raw: unknown;
  try {
    const text = readFileSync(file, 'utf8');
    raw = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new WorkflowDefinitionError(
      file,
      '(file)',
      `not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${(error as Error).message.split('\n')[0]}`,
    );
  }
  const parsed = workflowSpec.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new WorkflowDefinitionError(file, issue.path.join('.') || '(root)', issue.message);
  }
  checkConsistency(file, parsed.data, connectors);
  return parsed.data;
}

/** What zod cannot see: unique step ids, known connectors, templates that refer to something. */
function checkConsistency(file: string, spec: WorkflowSpec, connectors: Connectors) {
  const fail = (path: string, message: string): never => {
    throw new WorkflowDefinitionError(file, path, message);
  };
  for (const [i, field] of spec.input.required.entries()) {
    if (!Object.hasOwn(spec.input.properties, field))
      fail(`input.required.${i}`, `"${field}" is not a property`);
  }
  const earlier = new Set<string>();
  const checkReferences = (path: string, value: unknown, steps: ReadonlySet<string>) => {
    for (const reference of referencesIn(value)) {
      const [root, name, field] = reference.split('.');
      if (root === 'input' && name && Object.hasOwn(spec.input.properties, name)) continue;
      if (root === 'steps' && name && steps.has(name) && field === 'output') continue;
      fail(
        path,
        `{{${reference}}} refers to nothing: use {{input.<property>}} or {{steps.<earlier step id>.output}}`,
      );
    }
  };
  for (const [i, step] of spec.steps.entries()) {
    if (earlier.has(step.id)) fail(`steps.${i}.id`, `duplicate step id "${step.id}"`);
    if (step.type === 'connector') {
      if (!connectors.has(step.connector)) {
        fail(
          `steps.${i}.connector`,
          `unknown connector "${step.connector}"; known: ${[...connectors.keys()].join(', ')}`,
        );
      }
      checkReferences(`steps.${i}.with`, step.with, earlier);
    } else {
      checkReferences(`steps.${i}.prompt`, step.prompt, earlier);
      checkReferences(`steps.${i}.system`, step.system, earlier);
    }
    earlier.add(step.id);
  }
  checkReferences('result', spec.result, earlier);
}
