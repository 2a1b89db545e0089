/**
 * @module workflows/connectors/connector
 * What a connector is: a named action a `connector` step calls with rendered
 * parameters, checked against the connector's zod schema. A connector fails with
 * a `StepError` that says whether trying again could help.
 */
import type { z } from '@xv/platform';

export class StepError extends Error {
  override name = 'StepError';
  constructor(
    message: string,
    /** False for failures a retry cannot fix (bad parameters, a 4xx answer, a missing setting). */
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

export interface ConnectorContext {
  signal: AbortSignal;
  runId: string;
  stepId: string;
  /** 1 for the first try. */
  attempt: number;
}

export interface Connector<Params = unknown> {
  name: string;
  description: string;
  params: z.ZodType<Params>;
  /**
   * Checks parameters beyond their schema, before a run is made, when they come from the run's input
   * alone: throws a 4xx AppError (its `field` a parameter name), so a caller's bad input is a 400, not a
   * failed run. `run` must still check what it relies on (parameters made from earlier steps skip this).
   */
  check?(params: Params): void;
  /** It does what a public form does (it creates a lead): a run needs the bot challenge when one is on. */
  needsBotChallenge?: boolean;
  run(params: Params, context: ConnectorContext): Promise<unknown>;
}

export function defineConnector<Params>(connector: Connector<Params>): Connector<unknown> {
  return connector as Connector<unknown>;
}

export type Connectors = ReadonlyMap<string, Connector>;
