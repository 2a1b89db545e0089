export { agentService } from './service.js';
export { SessionRegistry } from './sessions/registry.js';
export { SessionStore } from './sessions/store.js';
