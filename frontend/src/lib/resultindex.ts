import type { RequestContext } from './context'
import { conversationIndex, headerSize } from './pins'

/**
 * ResultIndex is toolResultIndexes (lib/pins.ts) kept up to date as a live
 * run builds its requests: only the requests built since the last update
 * are read, and of each only the messages the request before it did not
 * carry, so a run of a thousand iterations is indexed in one pass over its
 * messages, an iteration costs the same at #1,000 as at #1, and the map
 * keeps its identity while no request is built (the cards that take it stay
 * memoised).
 */
export interface ResultIndex {
  update(contexts: Map<number, RequestContext>): Map<string, number>
}

export function createResultIndex(): ResultIndex {
  let seen = new Map<number, RequestContext>()
  let out = new Map<string, number>()
  let last: RequestContext | null = null

  // read sets the index of each tool result c carried. The requests between
  // two full ones share their messages array and only add to it, so where
  // c numbers the conversation as the last request read did, the messages
  // that request carried are numbered the same and are skipped.
  const read = (into: Map<string, number>, c: RequestContext) => {
    const same = last !== null && last.base === c.base && headerSize(last.data) === headerSize(c.data) && (last.data.folded ?? 0) === (c.data.folded ?? 0)
    for (let p = same && last ? Math.min(last.count, c.count) : 0; p < c.count; p++) {
      const m = c.base[p]
      const i = m.role === 'tool' && m.tool_call_id ? conversationIndex(c, p) : null
      if (i !== null && m.tool_call_id) into.set(m.tool_call_id, i)
    }
    last = c
  }

  return {
    update(contexts) {
      if (contexts === seen) return out
      // The requests built since, in order. When every request already read
      // is there as it was and the new ones come after them all (a live
      // run's next requests), reading the new ones is enough: a later
      // request writes over an earlier one, as in toolResultIndexes. Any
      // other change (a retried request, another run) reads them all.
      const fresh: RequestContext[] = []
      let kept = 0
      let whole = false
      for (const [n, c] of contexts) {
        if (seen.get(n) === c) {
          kept++
          if (fresh.length > 0) whole = true
        } else fresh.push(c)
      }
      if (kept < seen.size) whole = true
      if (whole) {
        out = new Map()
        last = null
        for (const c of contexts.values()) read(out, c)
      } else if (fresh.length > 0) {
        out = new Map(out)
        for (const c of fresh) read(out, c)
      }
      seen = contexts
      return out
    },
  }
}
