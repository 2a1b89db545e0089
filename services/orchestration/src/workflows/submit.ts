/**
 * @module workflows/submit
 * A request to run a workflow, checked and started: the workflow must be
 * registered, the idempotency key short enough, the input valid; a workflow that
 * creates a lead asks the bot challenge first (only when it makes a new run).
 */
import { isId, platformErrors } from '@xv/platform';
import { errors } from '../errors.js';
import type { BotChallenge } from '../leads/challenge.js';
import type { RunView, WorkflowEngine } from './engine.js';
import type { Workflow, WorkflowRegistry } from './registry.js';

export const IDEM_KEY_MAX_CHARACTERS = 120;

export interface RunRequest {
  workflow: string;
  input?: Record<string, unknown> | undefined;
  idemKey?: string | undefined;
}

export class WorkflowRuns {
  constructor(
    private readonly engine: WorkflowEngine,
    private readonly registry: WorkflowRegistry,
    /** The lead form's bot challenge, also asked of every run of a workflow that creates a lead. */
    private readonly challenge: BotChallenge,
  ) {}

  /** Where a workflow's input carries the bot challenge answer: only lead-creating ones, only when it is on. */
  answerFieldOf(workflow: Workflow) {
    return workflow.needsBotChallenge ? this.challenge.answerField : undefined;
  }

  /** Runs the workflow (or joins the run of its idempotency key) and resolves with the run as it ended. */
  async run(request: RunRequest, clientIp: string): Promise<RunView> {
    const workflow = this.registry.get(request.workflow);
    if (!workflow)
      throw errors.unknown_workflow(`No workflow named "${request.workflow.slice(0, 100)}" is registered.`);
    if (request.idemKey !== undefined && [...request.idemKey].length > IDEM_KEY_MAX_CHARACTERS) {
      throw errors.idem_key_too_long();
    }
    const fields = { ...request.input };
    const answerField = this.answerFieldOf(workflow);
    // The challenge answer is checked once and is no part of the run: not stored, not hashed, not templated.
    const answer = answerField ? fields[answerField] : undefined;
    if (answerField) delete fields[answerField];
    const input = workflow.validateInput(fields);
    workflow.checkSteps(input);
    const admit = answerField
      ? () => this.challenge.check(typeof answer === 'string' ? answer : undefined, clientIp)
      : undefined;
    return this.engine.start(workflow, input, request.idemKey, admit);
  }

  /** The run with id `id`; 404 `not_found` when there is none. */
  async view(id: string): Promise<RunView> {
    const view = isId(id, 'run') ? await this.engine.view(id) : undefined;
    if (!view) throw platformErrors.not_found('No run has that id.');
    return view;
  }

  workflows(): Workflow[] {
    return [...this.registry.values()];
  }
}
