import type { ContextBuiltData } from '../api/types'
import { messagesOf, type RequestContext } from './context'

// A run's conversation is numbered from 0: the messages after the task
// anchor, in order (docs/api.md, "Context and memory"). A request sends the
// system prompt and the anchor, then the summary and the recalled memory
// when there are any, then the conversation from message `folded` on.

/** headerSize is how many messages of a request come before its conversation. */
export function headerSize(data: ContextBuiltData): number {
  const l = data.layers
  return 2 + ((l?.summary ?? 0) > 0 ? 1 : 0) + ((l?.memory ?? 0) > 0 ? 1 : 0)
}

/** conversationIndex is the conversation index of the message at position p of a request, or null for the layers before the conversation. */
export function conversationIndex(ctx: RequestContext, p: number): number | null {
  const header = headerSize(ctx.data)
  return p < header ? null : (ctx.data.folded ?? 0) + p - header
}

/**
 * toolResultIndexes maps each tool call id to the conversation index of its
 * result, from every request built so far: a result can be pinned once a
 * request has carried it.
 */
export function toolResultIndexes(contexts: Map<number, RequestContext>): Map<string, number> {
  const out = new Map<string, number>()
  for (const ctx of contexts.values()) {
    const header = headerSize(ctx.data)
    const folded = ctx.data.folded ?? 0
    messagesOf(ctx).forEach((m, p) => {
      if (p >= header && m.role === 'tool' && m.tool_call_id) out.set(m.tool_call_id, folded + p - header)
    })
  }
  return out
}
