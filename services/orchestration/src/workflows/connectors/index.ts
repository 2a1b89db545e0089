/**
 * @module workflows/connectors
 * The built-in connectors a `connector` step can name.
 */
import type { OrchestrationDatabase } from '../../db.js';
import type { Connector, Connectors } from './connector.js';
import { httpConnector } from './http.js';
import { kbSearchConnector } from './kb-search.js';
import { leadCreateConnector } from './lead-create.js';
import { trustSealConnector } from './trust-seal.js';

export { type Connector, type Connectors, StepError } from './connector.js';

export interface ConnectorOptions {
  database: OrchestrationDatabase;
  httpAllowedHosts: readonly string[];
  kbUrl: string;
  kbToken: string | undefined;
  trustUrl: string;
  trustToken: string | undefined;
}

export function builtInConnectors(options: ConnectorOptions): Connectors {
  const list: Connector[] = [
    httpConnector(options.httpAllowedHosts),
    kbSearchConnector({ kbUrl: options.kbUrl, token: options.kbToken }),
    trustSealConnector({ trustUrl: options.trustUrl, token: options.trustToken }),
    leadCreateConnector(options.database),
  ];
  return new Map(list.map((c) => [c.name, c]));
}
