import { describe, expect, it } from 'vitest'
import type { HermesEvent } from '../api/types'
import { rebuildContexts } from './context'
import { sampleEvents } from './fixture'
import { conversationIndex, headerSize, toolResultIndexes } from './pins'
import { foldRun } from './timeline'

const ev = (seq: number, iteration: number, type: string, data: unknown): HermesEvent => ({ v: 1, run_id: 'p', seq, time: '2026-11-30T01:00:00Z', iteration, type, data })

const msg = (role: string, content: string, extra: object = {}) => ({ role, content, ...extra })

// A run whose third request was compressed: messages 0..3 are in the
// summary, the memory layer is there too, and the request carries 4 onwards.
const compressed: HermesEvent[] = [
  ev(1, 3, 'context.built', {
    layers: { system: 10, task_anchor: 10, summary: 40, memory: 12, recent: 30, tool_results: 20 },
    full: true,
    folded: 4,
    message_count: 6,
    messages: [msg('system', 'sys'), msg('user', 'anchor'), msg('user', 'summary'), msg('user', 'memory'), msg('assistant', 'calling', { tool_calls: [{ id: 'c9', name: 'read_file' }] }), msg('tool', 'result', { tool_call_id: 'c9' })],
  }),
]

describe('pins', () => {
  it('numbers the conversation after the layers before it', () => {
    const ctx = rebuildContexts(compressed).get(3)!
    expect(headerSize(ctx.data)).toBe(4)
    expect([0, 3, 4, 5].map((p) => conversationIndex(ctx, p))).toEqual([null, null, 4, 5])
    const first = rebuildContexts(sampleEvents).get(2)!
    expect(headerSize(first.data)).toBe(2)
    expect(conversationIndex(first, 3)).toBe(1)
  })

  it('finds the message of each tool result a request carried', () => {
    expect(toolResultIndexes(rebuildContexts(sampleEvents))).toEqual(new Map([['c1', 1]]))
    expect(toolResultIndexes(rebuildContexts(compressed))).toEqual(new Map([['c9', 5]]))
  })

  it('folds pins into the run and marks them in their card', () => {
    const view = foldRun([
      ...sampleEvents.slice(0, 5),
      ev(50, 1, 'context.pinned', { fact: 'the budget is 4,500' }),
      ev(51, 1, 'context.pinned', { message: 1, role: 'tool', preview: 'error: no such file' }),
      ev(52, 1, 'context.pinned', { message: 1, role: 'tool', preview: 'error: no such file' }),
    ])
    expect(view.pinnedFacts).toEqual(['the budget is 4,500'])
    expect(view.pinnedMessages).toEqual([1])
    const marks = view.iterations[1].items.flatMap((i) => (i.kind === 'mark' && i.mark.kind === 'pinned' ? [i.mark.data] : []))
    expect(marks).toHaveLength(3)
    expect(marks[0]).toEqual({ fact: 'the budget is 4,500' })
  })
})
