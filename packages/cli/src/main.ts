/**
 * @module main
 * `xv <command>`: the XV command line. Each command lives in its own module and
 * returns an exit code.
 */
import { SettingsError } from '@xv/platform';
import { credentialCommands } from './commands/credentials.js';
import { identityCommands } from './commands/identity.js';
import { kbCommands } from './commands/kb.js';
import { start, UsageError } from './launcher/start.js';

type Command = { summary: string; run(args: string[]): Promise<number> };

const commands: Record<string, Command> = {
  start: {
    summary: 'start the platform, or the services named: xv start [identity knowledge …]',
    run: start,
  },
  ...identityCommands,
  ...credentialCommands,
  ...kbCommands,
};

function usage(): string {
  const width = Math.max(...Object.keys(commands).map((name) => name.length)) + 2;
  const rows = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)} ${c.summary}`);
  return `Usage: xv <command> [arguments]\n\nCommands:\n${rows.join('\n')}\n`;
}

const [name, ...args] = process.argv.slice(2);
const command = name ? commands[name] : undefined;
if (!command) {
  process.stderr.write(
    name && name !== 'help' && name !== '--help' ? `xv: unknown command ${name}\n\n${usage()}` : usage(),
  );
  process.exit(name && name !== 'help' && name !== '--help' ? 2 : 0);
}
try {
  process.exitCode = await command.run(args);
} catch (error) {
  if (error instanceof UsageError || error instanceof SettingsError) {
    process.stderr.write(`xv: ${error.message}\n`);
    process.exitCode = 2;
  } else {
    throw error;
  }
}
