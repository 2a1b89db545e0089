/**
 * @module commands/kb
 * The knowledge base from the command line.
 *
 *   xv kb sync <folder> [--watch] [--url <kb url>] [--token <xkb_…>] [--no-submit] [--keep-deleted]
 *       The desktop client: walks a Markdown vault, hashes every `.md` file
 *       (lowercase hex SHA-256 of its UTF-8 bytes), compares with what the server
 *       holds (`GET /api/sync/manifest`), pushes new and changed files, submits
 *       them for review, retires documents whose file was deleted, and reports
 *       what changed, then each file's state on the server (`= path: approved`,
 *       `waiting for review`, `rejected: <reviewer's note>`, `draft`); vaults of
 *       more than 20 files print `[n/total] path` as each file is read. `--watch` keeps running and syncs again after each change.
 *       Settings: `XV_KB_URL` and `XV_KB_TOKEN` (a personal access token with the
 *       `sync` scope), or the flags; without a token, the sign-in of `xv kb login`.
 *   xv kb login [--identity <url>] [--realm <realm>] [--url <kb url>]
 *       Signs the desktop client in with the device flow: prints a code and a link,
 *       waits for the person to approve in the browser, keeps the token (kb-login.ts).
 *   xv kb reindex
 *       Re-embeds every approved document with the configured embedder (run it
 *       after changing `XV_KB_EMBEDDINGS_*`); opens the knowledge database directly.
 *   xv kb eval <collection-folder> [--split test] [--json]
 *       Measures search quality on a BEIR collection (corpus.jsonl, queries.jsonl,
 *       qrels/<split>.tsv) in a scratch knowledge base: nDCG@10, MRR@10 and
 *       recall@100 of lexical, vector and hybrid search and of a plain BM25
 *       baseline, with the median search time. Uses the configured embedder
 *       (`XV_KB_EMBEDDINGS_*`). Exits 1 when hybrid ranks below lexical on nDCG@10.
 */
import { createHash } from 'node:crypto';
import { watch } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { AppError, loadPlatformSettings } from '@xv/platform';
import { UsageError } from '../launcher/start.js';
import { type Env, flag, type Out, option } from './args.js';
import { kbLogin, storedKbToken } from './kb-login.js';

/** An evaluation's report, passed back to the module that made it. */
type EvaluationReport = { warnings: string[] };

interface KnowledgeModule {
  reindexKnowledgeBase(
    env: Env,
  ): Promise<{ documents: number; chunks: number; embedder: string; vectorBackend: string }>;
  evaluateCollection(folder: string, options: { split?: string }, env: Env): Promise<EvaluationReport>;
  formatEvaluation(report: EvaluationReport): string;
  evaluationJson(report: EvaluationReport): string;
  evaluationFailure(report: EvaluationReport): string | undefined;
  CollectionError: abstract new (...args: never[]) => Error;
}

/**
 * The knowledge service's module, loaded on demand (only these commands need it in memory),
 * through a variable so the CLI's build does not depend on the knowledge project's declarations.
 */
function loadKnowledge(): Promise<KnowledgeModule> {
  const specifier = '@xv/knowledge';
  return import(specifier) as Promise<KnowledgeModule>;
}

const MARKDOWN = /\.(md|markdown)$/i;
const SKIPPED_FOLDERS = new Set(['node_modules']);

export interface SyncOptions {
  folder: string;
  url: string;
  token: string;
  submit?: boolean;
  retireDeleted?: boolean;
  out?: Out;
}

export interface SyncReport {
  added: string[];
  changed: string[];
  unchanged: number;
  submitted: string[];
  retired: string[];
  failed: { path: string; reason: string }[];
  /** Each vault file's state on the server after the sync, from its manifest. */
  states: FileState[];
}

export interface FileState {
  path: string;
  state: string;
  /** The reviewer's note, when the document was rejected with one. */
  note?: string;
}

interface ManifestEntry {
  docId: string;
  path: string;
  hash: string;
  state: string;
  kind: 'content' | 'retirement';
  note?: string;
}

/** Vaults larger than this print `[n/total] path` as each file is read. */
const PROGRESS_FROM = 20;

const STATE_WORDS: Record<string, string> = {
  approved: 'approved',
  under_review: 'waiting for review',
  rejected: 'rejected',
  draft: 'draft (not submitted)',
  retired: 'retired',
};

/** A file's state as a person reads it, with the reviewer's note on a rejection. */
export function describeState(entry: { state: string; note?: string | undefined }): string {
  const words = STATE_WORDS[entry.state] ?? entry.state;
  return entry.note ? `${words}: ${entry.note}` : words;
}

/** Every Markdown file under `folder`, as vault paths with forward slashes; dot folders (.git, .obsidian, .trash) are skipped. */
export async function vaultFiles(folder: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) await walk(full);
      } else if (entry.isFile() && MARKDOWN.test(entry.name)) {
        found.push(relative(folder, full).split(sep).join('/'));
      }
    }
  };
  await walk(folder);
  return found.sort();
}

export async function syncVault(options: SyncOptions): Promise<SyncReport> {
  const out = options.out ?? (() => {});
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${options.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${options.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (!response.ok) {
      throw new Error(
        `${method} ${path}: ${response.status} ${String(json.message ?? json.error ?? '')}`.trim(),
      );
    }
    return json;
  };

  const report: SyncReport = {
    added: [],
    changed: [],
    unchanged: 0,
    submitted: [],
    retired: [],
    failed: [],
    states: [],
  };
  const readManifest = async () =>
    new Map(((await api('GET', '/api/sync/manifest')).documents as ManifestEntry[]).map((d) => [d.path, d]));
  const manifest = await readManifest();
  const files = await vaultFiles(options.folder);
  for (const [index, path] of files.entries()) {
    if (files.length > PROGRESS_FROM) out(`[${index + 1}/${files.length}] ${path}`);
    try {
      const content = await readFile(join(options.folder, ...path.split('/')), 'utf8');
      const hash = createHash('sha256').update(content, 'utf8').digest('hex');
      const known = manifest.get(path);
      let docId = known?.docId;
      let state = known?.state;
      if (!known || known.hash !== hash || known.kind === 'retirement') {
        const pushed = await api('POST', '/api/sync/push', { path, content, hash });
        docId = pushed.docId as string;
        state = pushed.state as string;
        if (pushed.unchanged) report.unchanged++;
        else if (known && known.kind === 'content') {
          report.changed.push(path);
          out(`~ ${path}`);
        } else {
          report.added.push(path);
          out(`+ ${path}`);
        }
      } else {
        report.unchanged++;
      }
      if (options.submit !== false && state === 'draft' && docId) {
        await api('POST', '/api/sync/submit', { docId });
        report.submitted.push(path);
        out(`  submitted ${path} for review`);
      }
    } catch (error) {
      report.failed.push({ path, reason: (error as Error).message });
      out(`! ${path}: ${(error as Error).message}`);
    }
  }
  if (options.retireDeleted !== false) {
    const present = new Set(files);
    for (const entry of manifest.values()) {
      if (present.has(entry.path) || entry.kind === 'retirement') continue; // retired, or retiring
      try {
        const result = await api('POST', '/api/sync/retire', { path: entry.path });
        report.retired.push(entry.path);
        out(`- ${entry.path} (${result.state === 'retired' ? 'retired' : 'retirement sent for review'})`);
      } catch (error) {
        report.failed.push({ path: entry.path, reason: (error as Error).message });
        out(`! ${entry.path}: ${(error as Error).message}`);
      }
    }
  }
  await reportStates(report, files, readManifest, out);
  out(
    `${report.added.length} new, ${report.changed.length} changed, ${report.unchanged} unchanged, ` +
      `${report.retired.length} retired, ${report.failed.length} failed`,
  );
  return report;
}

/** What the server now says of each vault file: the push alone does not tell whether it is live. */
async function reportStates(
  report: SyncReport,
  files: string[],
  readManifest: () => Promise<Map<string, ManifestEntry>>,
  out: Out,
) {
  let after: Map<string, ManifestEntry>;
  try {
    after = await readManifest();
  } catch (error) {
    out(`! cannot read the states from the server: ${(error as Error).message}`);
    return;
  }
  const failed = new Set(report.failed.map((f) => f.path));
  for (const path of files) {
    const entry = after.get(path);
    if (!entry || failed.has(path)) continue;
    const state: FileState = { path, state: entry.state, ...(entry.note ? { note: entry.note } : {}) };
    report.states.push(state);
    out(`= ${path}: ${describeState(state)}`);
  }
}

const USAGE =
  'usage: xv kb login [--identity <identity url>] [--realm <realm>] [--url <kb url>] | xv kb sync <folder> [--watch] [--url <kb url>] [--token <xkb_…>] [--no-submit] [--keep-deleted] | xv kb reindex | xv kb eval <collection-folder> [--split test] [--json]';

const EVAL_USAGE = `usage: xv kb eval <collection-folder> [--split test] [--json]
  Measures search quality on a BEIR collection: corpus.jsonl ({"_id","title","text"} per line),
  queries.jsonl ({"_id","text"}) and qrels/<split>.tsv (query-id, corpus-id, score). The corpus is
  indexed into a scratch knowledge base with the configured embedder (XV_KB_EMBEDDINGS_*), every judged
  query is searched in lexical, vector and hybrid mode and against a plain BM25 baseline (SQLite FTS5),
  and nDCG@10, MRR@10 and recall@100 are printed with the median search time (--json: one JSON object).
  Exit code 0; 1 when hybrid ranks below lexical on nDCG@10; 2 when the collection cannot be read
  or the embedder fails.`;

/** `xv kb eval`: prints the table (or JSON) on `out`, warnings and the verdict on `err`. */
async function evaluate(args: string[], env: Env, out: Out, err: Out): Promise<number> {
  const split = option(args, 'split');
  const json = flag(args, 'json');
  const [folder, ...extra] = args;
  if (!folder || folder.startsWith('--') || extra.length > 0) throw new UsageError(EVAL_USAGE);
  const knowledge = await loadKnowledge();
  let report: EvaluationReport;
  try {
    report = await knowledge.evaluateCollection(folder, split ? { split } : {}, env);
  } catch (error) {
    // An unreadable collection or an unreachable embedder is the operator's to fix: no stack trace.
    if (error instanceof knowledge.CollectionError || error instanceof AppError)
      throw new UsageError(error.message);
    throw error;
  }
  for (const warning of report.warnings) err(`warning: ${warning}`);
  out(json ? knowledge.evaluationJson(report) : knowledge.formatEvaluation(report));
  const failure = knowledge.evaluationFailure(report);
  if (failure) err(failure);
  return failure ? 1 : 0;
}

export async function kbCommand(
  args: string[],
  env: Env = process.env,
  out: Out = console.log,
  err: Out = console.error,
): Promise<number> {
  const [action, ...rest] = args;
  if (action === 'eval') return evaluate(rest, env, out, err);
  if (action === 'reindex') {
    const result = await (await loadKnowledge()).reindexKnowledgeBase(env);
    out(
      `reindexed ${result.documents} documents into ${result.chunks} chunks with ${result.embedder} (${result.vectorBackend})`,
    );
    return 0;
  }
  if (action === 'login') return kbLogin(rest, env, out);
  if (action !== 'sync') throw new UsageError(USAGE);
  const watching = flag(rest, 'watch');
  const submit = !flag(rest, 'no-submit');
  const retireDeleted = !flag(rest, 'keep-deleted');
  const url = (
    option(rest, 'url') ??
    env.XV_KB_URL ??
    loadPlatformSettings('knowledge', env).services.knowledge.url
  ).replace(/\/+$/, '');
  const given = option(rest, 'token') ?? env.XV_KB_TOKEN;
  const [folder, ...extra] = rest;
  if (!folder || extra.length > 0) throw new UsageError(USAGE);
  // A personal access token, else the sign-in of `xv kb login` (refreshed as it nears its end).
  const tokenNow = async () => {
    const token = given ?? (await storedKbToken(env, url));
    if (!token)
      throw new UsageError(
        'run `xv kb login`, or set XV_KB_TOKEN (a personal access token with the sync scope) or pass --token',
      );
    return token;
  };
  const options = { folder, url, token: await tokenNow(), submit, retireDeleted, out };
  const report = await syncVault(options);
  if (!watching) return report.failed.length > 0 ? 1 : 0;

  out(`watching ${folder} for changes (Ctrl-C to stop)`);
  return new Promise<number>((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<unknown> = Promise.resolve();
    const watcher = watch(folder, { recursive: true }, () => {
      clearTimeout(timer);
      // Editors write in bursts: sync once things settle.
      timer = setTimeout(() => {
        running = running.then(() =>
          tokenNow()
            .then((token) => syncVault({ ...options, token }))
            .catch((error) => out(`! ${(error as Error).message}`)),
        );
      }, 500);
    });
    const stop = () => {
      clearTimeout(timer);
      watcher.close();
      void running.then(() => resolve(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

export const kbCommands = {
  kb: {
    summary:
      'knowledge base: xv kb login | xv kb sync <folder> [--watch] | xv kb reindex | xv kb eval <collection>',
    run: (args: string[]) => kbCommand(args),
  },
};
