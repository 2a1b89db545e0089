/**
 * Builds a larger real-English search collection, in the BEIR layout read by
 * `xv kb eval`, from the READMEs of the packages installed under the
 * repository's node_modules. It is for measuring ranking ideas on more, and
 * more varied, text than the hand-written xv-handbook collection.
 *
 *   node --conditions=xv-source --import tsx bench/collections/package-readmes.ts <out-dir> [--max N]
 *
 * One document per package (sorted by name, first N kept, default 1,500):
 * packages with a README.md of 800–20,000 characters and a package.json
 * description of at least five words. The document is the README, less every
 * line that contains the description's first five words, with the package's
 * name replaced by "this package" so that a question cannot be answered by the
 * name alone. Every other package contributes one question, its description,
 * judged relevant (score 1) to its own README; the rest of the corpus are
 * distractors without a question.
 *
 * Limitations: each question has exactly one relevant document, though other
 * READMEs may answer it as well (several packages do the same job), and a
 * description often echoes the README's wording beyond the removed lines, so
 * the collection rewards word overlap more than real questions would.
 * Installed versions decide the content: the collection is reproducible for
 * one lockfile, not across installs.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const README_MIN_CHARS = 800;
const README_MAX_CHARS = 20_000;
const DESCRIPTION_MIN_WORDS = 5;
const DEFAULT_MAX_DOCUMENTS = 1_500;
const NAME_REPLACEMENT = 'this package';

interface PackageReadme {
  name: string;
  description: string;
  readme: string;
}

interface CollectionDocument {
  _id: string;
  title: string;
  text: string;
}

const usage = 'Usage: package-readmes.ts <out-dir> [--max N]';

function parseArguments(args: string[]): { outDir: string; max: number } {
  let outDir: string | undefined;
  let max = DEFAULT_MAX_DOCUMENTS;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--max') {
      const value = Number(args[++i]);
      if (!Number.isInteger(value) || value < 1)
        throw new Error(`--max needs a positive whole number\n${usage}`);
      max = value;
    } else if (arg.startsWith('-') || outDir !== undefined) {
      throw new Error(`unexpected argument ${arg}\n${usage}`);
    } else {
      outDir = arg;
    }
  }
  if (!outDir) throw new Error(usage);
  return { outDir: resolve(outDir), max };
}

/** Top-level and scoped package folders; workspace links (the project's own packages) are left out. */
function installedPackageDirs(nodeModules: string): string[] {
  const dirs: string[] = [];
  for (const entry of readdirSync(nodeModules)) {
    if (entry.startsWith('.')) continue;
    const path = join(nodeModules, entry);
    if (entry.startsWith('@')) {
      for (const scoped of readdirSync(path)) {
        const scopedPath = join(path, scoped);
        if (lstatSync(scopedPath).isDirectory()) dirs.push(scopedPath);
      }
    } else if (lstatSync(path).isDirectory()) {
      dirs.push(path);
    }
  }
  return dirs;
}

function readPackage(dir: string): PackageReadme | undefined {
  const manifestPath = join(dir, 'package.json');
  const readmeName = existsSync(dir)
    ? readdirSync(dir).find((f) => f.toLowerCase() === 'readme.md')
    : undefined;
  if (!readmeName || !existsSync(manifestPath)) return undefined;
  let manifest: { name?: unknown; description?: unknown };
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof manifest.name !== 'string' || typeof manifest.description !== 'string') return undefined;
  const description = manifest.description.trim().replace(/\s+/g, ' ');
  if (words(description).length < DESCRIPTION_MIN_WORDS) return undefined;
  const readme = readFileSync(join(dir, readmeName), 'utf8').replace(/\r\n?/g, '\n');
  if (readme.length < README_MIN_CHARS || readme.length > README_MAX_CHARS) return undefined;
  return { name: manifest.name, description, readme };
}

function words(text: string): string[] {
  return text.split(/\s+/).filter((word) => word.length > 0);
}

const squash = (text: string) => text.toLowerCase().replace(/\s+/g, ' ');
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * Matches the package's name as a whole word, in prose and in links alike. For a
 * scoped package the bare name (`ens-normalize` of `@adraffy/ens-normalize`)
 * counts too when it is distinctive (longer than six characters or not a plain
 * word); a short plain one such as `core` or `util` is left alone as ordinary text.
 */
function namePattern(name: string): RegExp {
  const bare = name.startsWith('@') ? name.slice(name.indexOf('/') + 1) : undefined;
  const distinctiveBare = bare && (bare.length > 6 || /[^a-z]/i.test(bare)) ? bare : undefined;
  const alternatives = [name, distinctiveBare].filter((n): n is string => !!n).map(escapeRegExp);
  return new RegExp(`(?<![\\w-])(?:${alternatives.join('|')})(?![\\w-])`, 'gi');
}

/** The first Markdown heading outside code blocks, stripped of images, links and HTML. */
function firstHeading(readme: string): string | undefined {
  let inFence = false;
  for (const line of readme.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const atx = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    const html = /<h[1-6][^>]*>(.*?)<\/h[1-6]>/i.exec(line);
    const raw = atx?.[1] ?? html?.[1];
    if (raw === undefined) continue;
    const heading = raw
      .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .trim();
    if (heading) return heading;
  }
  return undefined;
}

function toDocument(pkg: PackageReadme): CollectionDocument {
  const giveaway = squash(words(pkg.description).slice(0, DESCRIPTION_MIN_WORDS).join(' '));
  const name = namePattern(pkg.name);
  const text = pkg.readme
    .split('\n')
    .filter((line) => !squash(line).includes(giveaway))
    .join('\n')
    .replace(name, NAME_REPLACEMENT)
    .trim();
  const title = (firstHeading(pkg.readme) ?? pkg.name).replace(name, NAME_REPLACEMENT);
  return { _id: pkg.name, title, text };
}

function jsonLines(rows: object[]): string {
  const lines = rows.map((row) => JSON.stringify(row)).join('\n');
  return `${lines.normalize('NFC')}\n`;
}

function main(): void {
  const { outDir, max } = parseArguments(process.argv.slice(2));
  const nodeModules = fileURLToPath(new URL('../../node_modules/', import.meta.url));
  const packages = installedPackageDirs(nodeModules)
    .map(readPackage)
    .filter((pkg): pkg is PackageReadme => pkg !== undefined)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, max);

  const corpus = packages.map(toDocument);
  const asked = packages.filter((_, index) => index % 2 === 0);
  const queries = asked.map((pkg) => ({ _id: `q-${pkg.name}`, text: pkg.description }));
  const qrels = ['query-id\tcorpus-id\tscore', ...asked.map((pkg) => `q-${pkg.name}\t${pkg.name}\t1`)];

  mkdirSync(join(outDir, 'qrels'), { recursive: true });
  writeFileSync(join(outDir, 'corpus.jsonl'), jsonLines(corpus));
  writeFileSync(join(outDir, 'queries.jsonl'), jsonLines(queries));
  writeFileSync(join(outDir, 'qrels', 'test.tsv'), `${qrels.join('\n').normalize('NFC')}\n`);
  process.stdout.write(`${corpus.length} documents, ${queries.length} queries written to ${outDir}\n`);
}

try {
  main();
} catch (error) {
  process.stderr.write(`package-readmes: ${(error as Error).message}\n`);
  process.exitCode = 2;
}
