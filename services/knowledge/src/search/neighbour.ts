/**
 * @module search/neighbour
 * One answer of a nearest-neighbour search, shared by every vector backend.
 */

export interface Neighbour {
  chunkId: number;
  distance: number;
}
