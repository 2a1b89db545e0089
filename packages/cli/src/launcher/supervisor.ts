/**
 * @module launcher/supervisor
 * Keeps a set of child processes running: starts them, waits until each says it
 * is ready, restarts one that crashes (with a growing pause, reset once it has
 * stayed up), and stops them all gracefully: SIGTERM first, SIGKILL only after a
 * grace period.
 */
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface ProcessSpec {
  name: string;
  /** Starts the process; stdout and stderr must be pipes. */
  spawn(): ChildProcess;
  /** Resolves true once the process serves requests. */
  isReady(): Promise<boolean>;
}

export interface SupervisorEvents {
  output(name: string, line: string, stream: 'stdout' | 'stderr'): void;
  notice(message: string): void;
}

const FIRST_RESTART_DELAY_MS = 1000;
const MAX_RESTART_DELAY_MS = 30_000;
const STABLE_AFTER_MS = 30_000;

class Supervised {
  child: ChildProcess | undefined;
  private restartDelay = FIRST_RESTART_DELAY_MS;
  private startedAt = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  private exited: Promise<void> = Promise.resolve();

  constructor(
    readonly spec: ProcessSpec,
    private readonly events: SupervisorEvents,
    private readonly stopping: () => boolean,
  ) {}

  start() {
    const child = this.spec.spawn();
    this.child = child;
    this.startedAt = Date.now();
    for (const stream of ['stdout', 'stderr'] as const) {
      const source = child[stream];
      if (source)
        createInterface({ input: source }).on('line', (line) =>
          this.events.output(this.spec.name, line, stream),
        );
    }
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.child = undefined;
        resolve();
        if (this.stopping()) return;
        if (Date.now() - this.startedAt > STABLE_AFTER_MS) this.restartDelay = FIRST_RESTART_DELAY_MS;
        const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        this.events.notice(`${this.spec.name} ${how}; restarting in ${this.restartDelay / 1000}s`);
        this.restartTimer = setTimeout(() => this.start(), this.restartDelay);
        this.restartDelay = Math.min(this.restartDelay * 2, MAX_RESTART_DELAY_MS);
      });
    });
    child.once('error', (error) => this.events.notice(`${this.spec.name} could not start: ${error.message}`));
  }

  async stop(graceMs: number) {
    clearTimeout(this.restartTimer);
    const child = this.child;
    if (!child) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => {
      this.events.notice(`${this.spec.name} did not stop within ${graceMs / 1000}s; killing it`);
      child.kill('SIGKILL');
    }, graceMs);
    await this.exited;
    clearTimeout(killer);
  }
}

export class Supervisor {
  private readonly processes: Supervised[];
  private stopping = false;

  constructor(specs: ProcessSpec[], events: SupervisorEvents) {
    this.processes = specs.map((spec) => new Supervised(spec, events, () => this.stopping));
  }

  start(names?: string[]) {
    for (const p of this.processes) if (!names || names.includes(p.spec.name)) p.start();
  }

  /** Waits until every named process is ready; rejects naming the ones that are not after `timeoutMs`. */
  async waitUntilReady(names: string[], timeoutMs: number) {
    const deadline = Date.now() + timeoutMs;
    const pending = new Set(names);
    while (pending.size > 0) {
      if (this.stopping) throw new Error('stopped while starting');
      await Promise.all(
        this.processes
          .filter((p) => pending.has(p.spec.name))
          .map(async (p) => {
            if (await p.spec.isReady()) pending.delete(p.spec.name);
          }),
      );
      if (pending.size === 0) return;
      if (Date.now() > deadline)
        throw new Error(`not ready after ${timeoutMs / 1000}s: ${[...pending].join(', ')}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** Stops every process, each with a grace period before SIGKILL. */
  async stop(graceMs = 15_000) {
    this.stopping = true;
    await Promise.all(this.processes.map((p) => p.stop(graceMs)));
  }
}
