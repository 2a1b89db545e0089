/**
 * @module services
 * The catalogue of XV services: their names, the key used in their environment
 * variables, and their default ports. The launcher, settings and SSO client read it.
 */

export const SERVICE_NAMES = ['identity', 'knowledge', 'trust', 'chain', 'agent', 'orchestration'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export interface ServiceInfo {
  name: ServiceName;
  /** Key inside environment variable names: `XV_<KEY>_PORT`, `XV_<KEY>_URL`, `XV_<KEY>_DATABASE_URL`. */
  envKey: string;
  defaultPort: number;
  title: string;
}

export const SERVICES: Record<ServiceName, ServiceInfo> = {
  identity: { name: 'identity', envKey: 'IDENTITY', defaultPort: 4001, title: 'Identity' },
  knowledge: { name: 'knowledge', envKey: 'KB', defaultPort: 4002, title: 'Knowledge base' },
  trust: { name: 'trust', envKey: 'TRUST', defaultPort: 4003, title: 'Trust sealing' },
  agent: { name: 'agent', envKey: 'AGENT', defaultPort: 4004, title: 'Agent' },
  orchestration: { name: 'orchestration', envKey: 'ORCH', defaultPort: 4005, title: 'Orchestration' },
  chain: { name: 'chain', envKey: 'CHAIN', defaultPort: 4006, title: 'Chain relayer' },
};

export function isServiceName(value: string): value is ServiceName {
  return (SERVICE_NAMES as readonly string[]).includes(value);
}
