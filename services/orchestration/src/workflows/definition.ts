/**
 * @module workflows/definition
 * What a workflow definition file holds, checked with zod: a name, a description,
 * an input schema (a small JSON Schema: an object of typed properties and the
 * required ones), ordered steps (`ai` or `connector`) with retry and timeout, and
 * an optional result template.
 */
import { z } from '@xv/platform';
import { TIER_NAMES } from '../router/tiers.js';

const NAME = /^[a-z][a-z0-9-]{0,63}$/;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

export const retrySpec = z.strictObject({
  /** Tries in all, the first included. */
  attempts: z.number().int().min(1).max(10).default(3),
  /** Wait before the second try; each later wait is `factor` times longer, up to `maxBackoffMs`. */
  backoffMs: z.number().int().min(0).max(60_000).default(250),
  factor: z.number().min(1).max(10).default(2),
  maxBackoffMs: z.number().int().min(0).max(300_000).default(10_000),
});
export type RetrySpec = z.infer<typeof retrySpec>;

const stepCommon = {
  id: z.string().regex(IDENTIFIER, 'must be a letter or _ followed by letters, digits or _'),
  description: z.string().max(500).optional(),
  retry: retrySpec.optional(),
  /** Longest one try may take; default `XV_WF_STEP_TIMEOUT_MS`. */
  timeoutMs: z.number().int().min(1).max(600_000).optional(),
};

const aiStep = z.strictObject({
  ...stepCommon,
  type: z.literal('ai'),
  tier: z.enum(TIER_NAMES).default('balanced'),
  system: z.string().max(4000).optional(),
  prompt: z.string().min(1).max(20_000),
});

const connectorStep = z.strictObject({
  ...stepCommon,
  type: z.literal('connector'),
  connector: z.string().min(1),
  /** The connector's parameters; strings may hold templates. */
  with: z.record(z.string(), z.unknown()).default({}),
});

export const stepSpec = z.discriminatedUnion('type', [aiStep, connectorStep]);
export type StepSpec = z.infer<typeof stepSpec>;

const inputProperty = z.strictObject({
  type: z.enum(['string', 'number', 'integer', 'boolean', 'object', 'array']),
  description: z.string().max(500).optional(),
  maxLength: z.number().int().min(1).max(100_000).optional(),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  enum: z.array(z.string()).min(1).optional(),
});
export type InputProperty = z.infer<typeof inputProperty>;

export const inputSpec = z.strictObject({
  type: z.literal('object').default('object'),
  properties: z.record(z.string().regex(IDENTIFIER), inputProperty).default({}),
  required: z.array(z.string()).default([]),
});
export type InputSpec = z.infer<typeof inputSpec>;

export const workflowSpec = z.strictObject({
  name: z.string().regex(NAME, 'must be lowercase letters, digits and dashes, starting with a letter'),
  description: z.string().min(1).max(500),
  input: inputSpec,
  steps: z.array(stepSpec).min(1).max(50),
  /** The run's `result`; default: each step's output by step id. */
  result: z.record(z.string(), z.unknown()).optional(),
});
export type WorkflowSpec = z.infer<typeof workflowSpec>;

/** Strings longer than this are refused when a property sets no `maxLength`. */
export const DEFAULT_MAX_STRING = 10_000;
