/**
 * @module http/workflows
 * | POST | /api/wf        | public | `{workflow*, input*, idemKey}` → workflow run response |
 * | GET  | /api/wf?id=    | public | run record (snake_case), 404 `not_found`                 |
 * | GET  | /api/workflows | public | `{name, description, input}` of each workflow            |
 */

import type { RateLimiter } from '@xv/platform';
import { platformErrors } from '@xv/platform';
import { type App, access, clientIp, createRoute, errorResponses, limitByIp, z } from '@xv/platform/http';
import { errors } from '../errors.js';
import type { RunView } from '../workflows/engine.js';
import { inputJsonSchema } from '../workflows/input.js';
import { IDEM_KEY_MAX_CHARACTERS, type WorkflowRuns } from '../workflows/submit.js';

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
  security: access.public,
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
          example: {
            workflow: 'support-triage',
            input: { message: 'The invoice for order 1042 is wrong.' },
            idemKey: 'triage-1042-1',
          },
        },
      },
    },
  },
  responses: {
    200: {
      description: 'The finished run',
      content: {
        'application/json': {
          schema: runResponse,
          example: {
            ok: true,
            runId: 'run_01J2K8',
            workflow: 'support-triage',
            status: 'done',
            steps: [{ id: 'classify', type: 'ai', status: 'done', output: 'billing', attempts: 1 }],
            result: { category: 'billing' },
          },
        },
      },
    },
    202: {
      description: 'Still running (a duplicate that waited too long)',
      content: { 'application/json': { schema: runResponse } },
    },
    // A workflow that creates a lead answers as `POST /api/lead` does, too.
    ...errorResponses(
      errors.unknown_workflow,
      errors.empty_input,
      errors.invalid_input,
      errors.idem_key_too_long,
      errors.invalid,
      errors.personal_email,
      errors.challenge_required,
      errors.challenge_failed,
      errors.challenge_reused,
      errors.idempotency_key_reused,
      platformErrors.rate_limited,
      errors.workflow_failed,
      errors.challenge_unavailable,
    ),
  },
});

const getRun = createRoute({
  method: 'get',
  path: '/api/wf',
  summary: 'A run record',
  security: access.public,
  request: { query: z.object({ id: z.string().max(100).openapi({ example: 'run_01J2K8' }) }) },
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
    ...errorResponses([platformErrors.not_found, 'No run has that id.'], platformErrors.rate_limited),
  },
});

const listWorkflows = createRoute({
  method: 'get',
  path: '/api/workflows',
  summary: 'The registered workflows',
  security: access.public,
  responses: {
    ...errorResponses(platformErrors.rate_limited),
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
  runs: WorkflowRuns;
  runLimiter: RateLimiter;
  readLimiter: RateLimiter;
  trustProxy: boolean;
}

export function registerWorkflowRoutes(app: App, options: WorkflowRoutesOptions) {
  const { runs, trustProxy } = options;
  const limitRuns = limitByIp(options.runLimiter, trustProxy);
  const limitReads = limitByIp(options.readLimiter, trustProxy);
  app.use('/api/wf', (c, next) => (c.req.method === 'POST' ? limitRuns(c, next) : limitReads(c, next)));
  app.use('/api/workflows', limitReads);

  app.openapi(runWorkflow, async (c) => {
    const view = await runs.run(c.req.valid('json'), clientIp(c, trustProxy));
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
    const view = await runs.view(c.req.valid('query').id);
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
        workflows: runs.workflows().map((workflow) => ({
          name: workflow.spec.name,
          description: workflow.spec.description,
          input: inputJsonSchema(workflow.spec.input, runs.answerFieldOf(workflow)),
        })),
      },
      200,
    ),
  );
}
