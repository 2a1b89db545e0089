/**
 * @module service
 * The knowledge service: its settings, migrations and routes.
 */
import { defineService } from '@xv/platform';
import { migrations } from './migrations/index.js';

export const knowledgeService = defineService({
  name: 'knowledge',
  description:
    'Knowledge base: Markdown pushed from the desktop client, Maker-Checker review, hybrid search and an MCP server.',
  migrations,
  setup() {},
});
