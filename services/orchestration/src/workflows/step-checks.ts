/**
 * @module workflows/step-checks
 * What can be checked of a run before it is made: each connector step whose
 * parameters come from the input alone is rendered from the input and checked
 * against the connector's schema and its own `check`. A value the caller sent that
 * a step cannot take is then a 400 naming the input field (`invalid_input`, or the
 * connector's own code, such as `personal_email`), not a run that fails with 502.
 */
import { AppError } from '@xv/platform';
import { errors } from '../errors.js';
import type { Connectors } from './connectors/index.js';
import type { StepSpec, WorkflowSpec } from './definition.js';
import { referencesIn, render } from './template.js';

type ConnectorStep = Extract<StepSpec, { type: 'connector' }>;

export type InputCheck = (input: Record<string, unknown>) => void;

/** The input field a parameter's template reads, following `path` into the `with` block as far as it goes. */
function inputFieldBehind(template: unknown, path: readonly PropertyKey[]): string | undefined {
  let node = template;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) break;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  const reference = referencesIn(node).find((r) => r.startsWith('input.'));
  return reference?.split('.')[1];
}

export function stepChecks(spec: WorkflowSpec, connectors: Connectors): InputCheck {
  const checked = spec.steps.filter((step): step is ConnectorStep => {
    if (step.type !== 'connector') return false;
    const references = referencesIn(step.with);
    return references.length > 0 && references.every((r) => r.startsWith('input.'));
  });
  return (input) => {
    for (const step of checked) {
      const connector = connectors.get(step.connector)!;
      const parsed = connector.params.safeParse(render(step.with, { input, steps: {} }));
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const field = inputFieldBehind(step.with, issue.path);
        // A parameter no input field feeds is the definition's fault: the step reports it when it runs.
        if (field === undefined) continue;
        throw errors.invalid_input(`The input field "${field}" is not valid: ${issue.message}`, { field });
      }
      try {
        connector.check?.(parsed.data);
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        const parameter = error.extra.field;
        const field = typeof parameter === 'string' ? inputFieldBehind(step.with, [parameter]) : undefined;
        if (field === undefined || field === parameter) throw error;
        throw new AppError(error.status, error.code, error.message.replace(`"${parameter}"`, `"${field}"`), {
          ...error.extra,
          field,
        });
      }
    }
  };
}
