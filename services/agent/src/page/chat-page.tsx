/**
 * @module page/chat-page
 * Placeholder; the page follows.
 */
import type { App } from '@xv/platform';

export function registerChatPage(app: App): void {
  app.get('/', (c) => c.html('<!doctype html><title>XV Agent</title>'));
}
