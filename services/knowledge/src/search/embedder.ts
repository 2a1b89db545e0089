/**
 * @module search/embedder
 * What turns text into vectors. Two embedders share one interface: the built-in
 * offline embedder (no model weights, nothing downloaded) and any
 * OpenAI-compatible `/v1/embeddings` endpoint. Every vector leaves L2-normalised,
 * so cosine similarity is a dot product. The `fingerprint` names the embedder and
 * its dimension: the index remembers it, and a change calls for `xv kb reindex`.
 */
import { errors } from '../errors.js';
import { stem, terms, words } from './text.js';

export interface Embedder {
  /** e.g. `offline-hash-v1/384` or `openai:text-embedding-3-small`. */
  readonly fingerprint: string;
  /**
   * How much its ranking counts in hybrid search, against 1 for the lexical
   * ranking (docs/knowledge.md, "How search ranks").
   */
  readonly trust: number;
  embed(texts: string[]): Promise<Float32Array[]>;
}

/**
 * The offline embedder's trust: none in ranking. Measured on three collections,
 * any weight of its ranking in the fusion lowered nDCG@10 on at least one of
 * them, so its ranking only follows the lexical one (docs/knowledge.md).
 */
export const OFFLINE_TRUST = 0;
/** A real embedding model's: as much as the lexical ranking. */
export const MODEL_TRUST = 1;

export function normalize(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const v of vector) norm += v * v;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}

/** 32-bit FNV-1a. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

const WORD_WEIGHT = 1;
const BIGRAM_WEIGHT = 0.6;
const TRIGRAM_CHAR_WEIGHT = 0.35;

/**
 * Feature hashing over stemmed words, word bigrams and character trigrams of
 * each word (which catch shared roots and typos the stemmer misses), with
 * sublinear term frequency (1 + ln tf) and a sign hash so collisions cancel
 * instead of piling up.
 */
export class OfflineEmbedder implements Embedder {
  readonly fingerprint: string;
  readonly trust = OFFLINE_TRUST;

  constructor(readonly dimensions = 384) {
    this.fingerprint = `offline-hash-v1/${dimensions}`;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => this.embedOne(t));
  }

  embedOne(text: string): Float32Array {
    const counts = new Map<string, number>();
    const add = (feature: string, weight: number) => counts.set(feature, (counts.get(feature) ?? 0) + weight);
    const stems = terms(text).map(stem);
    for (let i = 0; i < stems.length; i++) {
      const w = stems[i]!;
      add(`w:${w}`, WORD_WEIGHT);
      if (i > 0) add(`b:${stems[i - 1]}_${w}`, BIGRAM_WEIGHT);
    }
    for (const w of words(text)) {
      if (w.length < 4) continue;
      const padded = `^${w}$`;
      for (let i = 0; i + 3 <= padded.length; i++) add(`c:${padded.slice(i, i + 3)}`, TRIGRAM_CHAR_WEIGHT);
    }
    const vector = new Float32Array(this.dimensions);
    for (const [feature, count] of counts) {
      const h = fnv1a(feature);
      const sign = h & 0x80000000 ? -1 : 1;
      vector[h % this.dimensions]! += sign * (1 + Math.log(count));
    }
    return normalize(vector);
  }
}

export interface RemoteEmbedderOptions {
  /** Base URL up to and including `/v1`, e.g. `https://api.openai.com/v1`. */
  url: string;
  model: string;
  apiKey?: string | undefined;
  batchSize?: number;
  timeoutMs?: number;
}

/** An OpenAI-compatible `POST {url}/embeddings` endpoint. */
export class RemoteEmbedder implements Embedder {
  readonly fingerprint: string;
  readonly trust = MODEL_TRUST;

  constructor(private readonly options: RemoteEmbedderOptions) {
    this.fingerprint = `openai:${options.model}`;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const size = this.options.batchSize ?? 64;
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += size) out.push(...(await this.batch(texts.slice(i, i + size))));
    return out;
  }

  private async batch(input: string[]): Promise<Float32Array[]> {
    let response: Response;
    try {
      response = await fetch(`${this.options.url}/embeddings`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
        },
        body: JSON.stringify({ model: this.options.model, input }),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
      });
    } catch {
      throw errors.embedder_unavailable();
    }
    if (!response.ok)
      throw errors.embedder_unavailable(`The embeddings endpoint answered ${response.status}.`);
    const body = (await response.json().catch(() => null)) as {
      data?: { index?: number; embedding?: unknown }[];
    } | null;
    const data = body?.data;
    if (!Array.isArray(data) || data.length !== input.length)
      throw errors.embedder_unavailable('The embeddings endpoint answered with an unexpected body.');
    const sorted = [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    return sorted.map((d) => {
      if (!Array.isArray(d.embedding) || d.embedding.some((x) => typeof x !== 'number'))
        throw errors.embedder_unavailable('The embeddings endpoint answered with an unexpected body.');
      return normalize(Float32Array.from(d.embedding as number[]));
    });
  }
}

export function vectorToBytes(vector: Float32Array): Uint8Array {
  return new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength);
}

export function bytesToVector(bytes: Uint8Array): Float32Array {
  // Copy: the driver's buffer may not be 4-byte aligned.
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float32Array(copy.buffer);
}
