package io.github.llmbench.simulator;

import java.util.Arrays;
import java.util.HashMap;

/**
 * The KV cache as vLLM V1's block pool: fixed-size blocks, a free queue in least-recently-used
 * order, and automatic prefix caching. A full block of prompt tokens is registered under its
 * chained hash once computed; when freed it keeps its hash and stays in the free queue (appended at
 * the tail, a request's blocks in reverse order so its last blocks go first), so a later request
 * with the same prefix can take it back; allocating a block takes the queue's head and evicts its
 * hash. Engine thread only.
 */
final class KvCache {
  private final int numBlocks;
  private final int blockSize;
  private final int[] refCount;
  private final long[] hash; // 0: none
  // free queue: doubly linked list over block ids, head = least recently freed
  private final int[] prev;
  private final int[] next;
  private int head = -1;
  private int tail = -1;
  private int free;
  private final HashMap<Long, Integer> cached = new HashMap<>();

  KvCache(int numBlocks, int blockSize) {
    this.numBlocks = numBlocks;
    this.blockSize = blockSize;
    this.refCount = new int[numBlocks];
    this.hash = new long[numBlocks];
    this.prev = new int[numBlocks];
    this.next = new int[numBlocks];
    Arrays.fill(prev, -1);
    Arrays.fill(next, -1);
    for (int b = 0; b < numBlocks; b++) {
      append(b);
    }
  }

  int numBlocks() {
    return numBlocks;
  }

  int blockSize() {
    return blockSize;
  }

  int freeBlocks() {
    return free;
  }

  /**
   * vLLM's kv_cache_usage: share of blocks held by requests (cached but free blocks count as free).
   */
  double usage() {
    return numBlocks == 0 ? 0 : 1.0 - (double) free / numBlocks;
  }

  /**
   * Leading prompt blocks of {@code r} found in the cache, at most what leaves one token to compute
   * (vLLM recomputes the last prompt token to get its logits).
   */
  int cachedPrefixBlocks(SimRequest r) {
    int max = Math.min(r.blockHashes.length, (r.numTokens() - 1) / blockSize);
    int n = 0;
    while (n < max && cached.containsKey(r.blockHashes[n])) {
      n++;
    }
    return n;
  }

  /**
   * For a request with no blocks yet: takes its {@code hitBlocks} cached prefix blocks (setting its
   * computed tokens to them) and allocates room for {@code n} more tokens. False, with nothing
   * changed, if the free blocks do not suffice.
   */
  boolean admit(SimRequest r, int hitBlocks, int n) {
    int fromFree = 0;
    for (int i = 0; i < hitBlocks; i++) {
      if (refCount[cached.get(r.blockHashes[i])] == 0) {
        fromFree++;
      }
    }
    int need = blocksFor(hitBlocks * blockSize + n) - hitBlocks;
    if (need + fromFree > free) {
      return false;
    }
    for (int i = 0; i < hitBlocks; i++) {
      int b = cached.get(r.blockHashes[i]);
      if (refCount[b]++ == 0) {
        unlink(b);
      }
      r.addBlock(b);
    }
    r.computed = hitBlocks * blockSize;
    take(r, need);
    return true;
  }

  /** Room for {@code n} more tokens of a running request; false, with nothing changed, if full. */
  boolean allocate(SimRequest r, int n) {
    int need = blocksFor(r.computed + n) - r.numBlocks;
    if (need > free) {
      return false;
    }
    take(r, need);
    return true;
  }

  /** Registers the request's newly completed full prompt blocks in the prefix cache. */
  void cacheFullBlocks(SimRequest r) {
    int full = Math.min(Math.min(r.computed / blockSize, r.blockHashes.length), r.numBlocks);
    for (int i = 0; i < full; i++) {
      int b = r.blocks[i];
      if (hash[b] != 0) {
        continue;
      }
      long h = r.blockHashes[i];
      if (!cached.containsKey(h)) {
        hash[b] = h;
        cached.put(h, b);
      }
    }
  }

  /**
   * Releases the request's blocks (finished, preempted or cancelled); they stay cached until
   * evicted.
   */
  void free(SimRequest r) {
    for (int i = r.numBlocks - 1; i >= 0; i--) {
      int b = r.blocks[i];
      if (--refCount[b] == 0) {
        append(b);
      }
    }
    r.numBlocks = 0;
  }

  /**
   * vLLM's {@code reset_prefix_cache}: forgets every cached block's hash, so no later request hits
   * the cache until blocks are computed again. As vLLM's block pool, it does nothing and answers
   * false while a request holds blocks.
   */
  boolean resetPrefixCache() {
    if (free != numBlocks) {
      return false;
    }
    cached.clear();
    Arrays.fill(hash, 0);
    return true;
  }

  private int blocksFor(int tokens) {
    return (tokens + blockSize - 1) / blockSize;
  }

  private void take(SimRequest r, int need) {
    for (int i = 0; i < need; i++) {
      int b = head;
      unlink(b);
      if (hash[b] != 0) {
        cached.remove(hash[b], b);
        hash[b] = 0;
      }
      refCount[b] = 1;
      r.addBlock(b);
    }
  }

  private void append(int b) {
    prev[b] = tail;
    next[b] = -1;
    if (tail >= 0) {
      next[tail] = b;
    } else {
      head = b;
    }
    tail = b;
    free++;
  }

  private void unlink(int b) {
    int p = prev[b];
    int n = next[b];
    if (p >= 0) {
      next[p] = n;
    } else {
      head = n;
    }
    if (n >= 0) {
      prev[n] = p;
    } else {
      tail = p;
    }
    prev[b] = -1;
    next[b] = -1;
    free--;
  }
}
