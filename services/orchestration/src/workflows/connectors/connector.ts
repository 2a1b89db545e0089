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
  run(params: Params, context: ConnectorContext): Promise<unknown>;
}

export function defineConnector<Params>(connector: Connector<Params>): Connector<unknown> {
  return connector as Connector<unknown>;
}

export type Connectors = ReadonlyMap<string, Connector>;
