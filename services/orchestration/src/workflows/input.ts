/**
 * @module workflows/input
 * Checking a run's input against the workflow's input schema: a required field
 * that is missing, null or blank is 400 `empty_input`; a field of the wrong type
 * or size (an object or array nested deeper than 32 levels included) is 400
 * `invalid_input`. Fields the schema does not declare are dropped.
 */
import { withinJsonDepth, z } from '@xv/platform';
import { errors } from '../errors.js';
import { DEFAULT_MAX_STRING, type InputProperty, type InputSpec } from './definition.js';

function propertySchema(property: InputProperty): z.ZodType {
  switch (property.type) {
    case 'string': {
      const text = z.string().max(property.maxLength ?? DEFAULT_MAX_STRING);
      return property.enum ? text.pipe(z.enum(property.enum as [string, ...string[]])) : text;
    }
    case 'number':
    case 'integer': {
      let number = property.type === 'integer' ? z.number().int() : z.number();
      if (property.minimum !== undefined) number = number.min(property.minimum);
      if (property.maximum !== undefined) number = number.max(property.maximum);
      return number;
    }
    case 'boolean':
      return z.boolean();
    case 'object':
      return z.record(z.string(), z.unknown()).refine(withinDepth, TOO_DEEP);
    case 'array':
      return z.array(z.unknown()).max(1000).refine(withinDepth, TOO_DEEP);
  }
}

/** Deeper JSON than this is refused: storing and hashing an input recurse through it. */
export const MAX_INPUT_DEPTH = 32;
const TOO_DEEP = `nested deeper than ${MAX_INPUT_DEPTH} levels`;

const withinDepth = (value: unknown) => withinJsonDepth(value, MAX_INPUT_DEPTH);

const isBlank = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

export type InputValidator = (input: Record<string, unknown>) => Record<string, unknown>;

export function inputValidator(spec: InputSpec): InputValidator {
  const shape = Object.fromEntries(
    Object.entries(spec.properties).map(([name, property]) => [name, propertySchema(property).optional()]),
  );
  const schema = z.object(shape);
  return (input) => {
    for (const field of spec.required) {
      if (isBlank(input[field]))
        throw errors.empty_input(`The input field "${field}" is required.`, { field });
    }
    const parsed = schema.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path.join('.');
      throw errors.invalid_input(`The input field "${field}" is not valid: ${issue.message}`, { field });
    }
    return Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined));
  };
}

/**
 * The input schema as published by `GET /api/workflows`: JSON Schema with its `required` fields, plus the
 * bot challenge answer (`challengeField`) for a workflow that creates a lead while a challenge is on.
 */
export function inputJsonSchema(spec: InputSpec, challengeField?: string) {
  if (!challengeField)
    return { type: 'object' as const, properties: spec.properties, required: spec.required };
  const answer = {
    type: 'string',
    description: 'The bot challenge answer, as for POST /api/lead; it is checked once and not stored',
  };
  return {
    type: 'object' as const,
    properties: { ...spec.properties, [challengeField]: answer },
    required: [...spec.required, challengeField],
  };
}
