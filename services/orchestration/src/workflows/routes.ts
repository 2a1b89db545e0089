/**
 * @module workflows/routes
 * | POST | /api/wf        | public | `{workflow*, input*, idemKey}` → workflow run response |
 * | GET  | /api/wf?id=    | public | run record (snake_case), 404 `not_found`                 |
 * | GET  | /api/workflows | public | `{name, description, input}` of each workflow            |
 */

import { isId, type RateLimiter } from '@xv/platform';
import { type App, clientIp, createRoute, limitByIp, z } from '@xv/platform/http';
import { errors } from '../errors.js';
import type { BotChallenge } from '../leads/challenge.js';
import type { RunView, WorkflowEngine } from './engine.js';
import { inputJsonSchema } from './input.js';
import type { Workflow, WorkflowRegistry } from './registry.js';

export const IDEM_KEY_MAX_CHARACTERS = 120;

const stepView = z.object({
  id: z.string(),
  type: z.enum(['ai', 'connector']),
  status: z.string(),
  output: z.string().optional(),
  attempts: z.number().int(),
});

const runResponse = z.object({
  ok: z.literal(true),
  runId: z.string(),
  workflow: z.string(),
  status: z.string().openapi({ description: '`done`, or `running` (202) when a duplicate waited too long' }),
  steps: z.array(stepView),
  result: z.record(z.string(), z.unknown()),
});

const runWorkflow = createRoute({
  method: 'post',
  path: '/api/wf',
  summary: 'Run a workflow (idempotent with idemKey)',
  request: {
    body: {
      required: true,
      content: {
        'application/json': {
          schema: z.object({
            workflow: z.string().min(1).max(100),
            input: z
              .record(z.string(), z.unknown())
              .optional()
              .openapi({ description: 'Required by most workflows' }),
            idemKey: z
              .string()
              .min(1)
              .optional()
              .openapi({ description: `At most ${IDEM_KEY_MAX_CHARACTERS} characters` }),
          }),
        },
      },
    },
  },
  responses: {
    200: { description: 'The finished run', content: { 'application/json': { schema: runResponse } } },
    202: {
      description: 'Still running (a duplicate that waited too long)',
      content: { 'application/json': { schema: runResponse } },
    },
    400: {
      description:
        '`unknown_workflow`, `empty_input`, `invalid_input`, `idem_key_too_long`; for a workflow that creates a lead, `invalid`, `personal_email` and the bot challenge errors',
    },
    422: { description: '`idempotency_key_reused`: the idemKey was used with a different input' },
    429: { description: '`rate_limited`' },
    502: { description: '`workflow_failed`, with runId, status `failed`, steps and the failed step' },
  },
});

const getRun = createRoute({
  method: 'get',
  path: '/api/wf',
  summary: 'A run record',
  request: { query: z.object({ id: z.string().max(100) }) },
  responses: {
    200: {
      description: 'The run and its steps',
      content: {
        'application/json': {
          schema: z.object({
            ok: z.literal(true),
            run: z.object({ run_id: z.string(), workflow: z.string(), status: z.string() }),
            steps: z.array(
              z.object({
                step_id: z.string(),
                status: z.string(),
                latency_ms: z.number().int(),
                attempts: z.number().int(),
              }),
            ),
          }),
        },
      },
    },
    404: { description: '`not_found`' },
  },
});

const listWorkflows = createRoute({
  method: 'get',
  path: '/api/workflows',
  summary: 'The registered workflows',
  responses: {
    200: {
      description: 'Each workflow with its input JSON Schema',
      content: {
        'application/json': {
          schema: z.object({
            ok: z.literal(true),
            workflows: z.array(
              z.object({
                name: z.string(),
                description: z.string(),
                input: z.record(z.string(), z.unknown()),
              }),
            ),
          }),
        },
      },
    },
  },
});

function runResponseOf(view: RunView) {
  return {
    ok: true as const,
    runId: view.runId,
    workflow: view.workflow,
    status: view.status,
    steps: view.steps.map(({ id, type, status, output, attempts }) => ({
      id,
      type: type as 'ai' | 'connector',
      status,
      ...(output !== undefined ? { output } : {}),
      attempts,
    })),
    result: (view.result ?? {}) as Record<string, unknown>,
  };
}

export interface WorkflowRoutesOptions {
  engine: WorkflowEngine;
  registry: WorkflowRegistry;
  runLimiter: RateLimiter;
  readLimiter: RateLimiter;
  trustProxy: boolean;
  /** The lead form's bot challenge, also asked of every run of a workflow that creates a lead. */
  challenge: BotChallenge;
}

export function registerWorkflowRoutes(app: App, options: WorkflowRoutesOptions) {
  const { engine, registry, trustProxy, challenge } = options;
  /** Where a workflow's input carries the bot challenge answer: only lead-creating ones, only when it is on. */
  const answerFieldOf = (workflow: Workflow) =>
    workflow.needsBotChallenge ? challenge.answerField : undefined;
  const limitRuns = limitByIp(options.runLimiter, trustProxy);
  const limitReads = limitByIp(options.readLimiter, trustProxy);
  app.use('/api/wf', (c, next) => (c.req.method === 'POST' ? limitRuns(c, next) : limitReads(c, next)));
  app.use('/api/workflows', limitReads);

  app.openapi(runWorkflow, async (c) => {
    const body = c.req.valid('json');
    const workflow = registry.get(body.workflow);
    if (!workflow)
      throw errors.unknown_workflow(`No workflow named "${body.workflow.slice(0, 100)}" is registered.`);
    if (body.idemKey !== undefined && [...body.idemKey].length > IDEM_KEY_MAX_CHARACTERS) {
      throw errors.idem_key_too_long();
    }
    const fields = { ...body.input };
    const answerField = answerFieldOf(workflow);
    // The challenge answer is checked once and is no part of the run: not stored, not hashed, not templated.
    const answer = answerField ? fields[answerField] : undefined;
    if (answerField) delete fields[answerField];
    const input = workflow.validateInput(fields);
    workflow.checkSteps(input);
    const admit = answerField
      ? () => challenge.check(typeof answer === 'string' ? answer : undefined, clientIp(c, trustProxy))
      : undefined;
    const view = await engine.start(workflow, input, body.idemKey, admit);
    const response = runResponseOf(view);
    if (view.status === 'failed') {
      const { ok: _, ...extra } = response;
      throw errors.workflow_failed(`The step "${view.error?.step}" failed: ${view.error?.message}`, {
        ...extra,
        failedStep: view.error?.step,
      });
    }
    return c.json(response, view.status === 'done' ? 200 : 202);
  });

  app.openapi(getRun, async (c) => {
    const { id } = c.req.valid('query');
    const view = isId(id, 'run') ? await engine.view(id) : undefined;
    if (!view) throw errors.not_found();
    return c.json(
      {
        ok: true as const,
        run: { run_id: view.runId, workflow: view.workflow, status: view.status },
        steps: view.steps.map((s) => ({
          step_id: s.id,
          status: s.status,
          latency_ms: s.latencyMs,
          attempts: s.attempts,
        })),
      },
      200,
    );
  });

  app.openapi(listWorkflows, (c) =>
    c.json(
      {
        ok: true as const,
        workflows: [...registry.values()].map((workflow) => ({
          name: workflow.spec.name,
          description: workflow.spec.description,
          input: inputJsonSchema(workflow.spec.input, answerFieldOf(workflow)),
        })),
      },
      200,
    ),
  );
}
