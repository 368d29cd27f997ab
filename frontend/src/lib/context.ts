import type { ChatMessage, ContextBuiltData, HermesEvent } from '../api/types'
import { diffSeq, type DiffOp } from './diff'

// The exact messages of each request, rebuilt from the log: every
// context.built carries the messages added since the previous request, or
// all of them when `full` (the first request, and after the context was
// rewritten, as by compression).

export interface RequestContext {
  iteration: number
  seq: number
  data: ContextBuiltData
  // The conversation only grows between two full requests, so the requests
  // in between share one array and keep their length: memory stays linear.
  base: ChatMessage[]
  count: number
}

/** messagesOf returns the messages a request sent, in order. */
export function messagesOf(c: RequestContext): ChatMessage[] {
  return c.base.slice(0, c.count)
}

/**
 * rebuildContexts folds the context.built events of a run (in seq order)
 * into the messages each iteration sent. An iteration that built its
 * context twice (a retry) keeps the last.
 */
export function rebuildContexts(events: readonly HermesEvent[]): Map<number, RequestContext> {
  const index = createContextIndex()
  return index.update(events)
}

/**
 * ContextIndex rebuilds the requests of a live run as its events grow: each
 * update reads only the events it has not seen, so a run of a thousand
 * iterations costs the same per event as a short one. Entries already built
 * keep their identity, so views of them need not redraw.
 */
export interface ContextIndex {
  update(events: readonly HermesEvent[]): Map<number, RequestContext>
}

export function createContextIndex(): ContextIndex {
  let seen: readonly HermesEvent[] = []
  let out = new Map<number, RequestContext>()
  let base: ChatMessage[] = []
  return {
    update(events) {
      // Another log, or the same one folded anew in another order: start over.
      const grows = events.length >= seen.length && (seen.length === 0 || events[seen.length - 1] === seen[seen.length - 1])
      if (!grows) {
        seen = []
        out = new Map()
        base = []
      }
      if (events.length === seen.length) return out
      // The map is copied only when a request was built: between two, its
      // identity holds, and what is derived from it (the pins' indexes, the
      // cards that take them) is not redone for every event.
      let copied = false
      for (let i = seen.length; i < events.length; i++) {
        const e = events[i]
        if (e.type !== 'context.built') continue
        if (!copied) {
          out = new Map(out)
          copied = true
        }
        const data = (e.data ?? {}) as ContextBuiltData
        const added = data.messages ?? []
        if (data.full) base = added.slice()
        else base.push(...added)
        out.set(e.iteration, { iteration: e.iteration, seq: e.seq, data, base, count: base.length })
      }
      seen = events
      return out
    },
  }
}

/** messageKey identifies a message by everything the model sees of it. */
export function messageKey(m: ChatMessage): string {
  return JSON.stringify([m.role, m.content, m.tool_call_id ?? '', m.name ?? '', m.tool_calls ?? []])
}

/** diffContexts says which messages a request dropped and added against the one before. */
export function diffContexts(prev: readonly ChatMessage[], next: readonly ChatMessage[]): DiffOp<ChatMessage>[] {
  return diffSeq(prev, next, messageKey)
}

/** previousContext is the request before iteration n's, if any. */
export function previousContext(contexts: Map<number, RequestContext>, n: number): RequestContext | undefined {
  let best: RequestContext | undefined
  for (const c of contexts.values()) if (c.iteration < n && (!best || c.iteration > best.iteration)) best = c
  return best
}
