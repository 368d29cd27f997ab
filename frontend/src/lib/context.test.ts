import { describe, expect, it } from 'vitest'
import { createContextIndex, diffContexts, messagesOf, previousContext, rebuildContexts } from './context'
import { sampleEvents, steeredEvents } from './fixture'

describe('rebuildContexts', () => {
  it('adds each request’s new messages to the conversation so far', () => {
    const ctx = rebuildContexts(sampleEvents)
    expect([...ctx.keys()]).toEqual([1, 2])
    expect(messagesOf(ctx.get(1)!).map((m) => m.role)).toEqual(['system', 'user'])
    expect(messagesOf(ctx.get(2)!).map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool'])
    expect(messagesOf(ctx.get(2)!)[2].tool_calls?.[0].name).toBe('read_file')
  })

  it('starts over from a full request, as after compression', () => {
    const ctx = rebuildContexts(steeredEvents)
    expect(messagesOf(ctx.get(2)!).map((m) => m.content)).toEqual(['You are Hermes.', 'Task: Write short notes', 'Summary: notes.md written'])
    // The earlier request is not changed by the later one.
    expect(messagesOf(ctx.get(1)!).map((m) => m.content)).toEqual(['You are Hermes.', 'Task: Write notes'])
  })

  it('grows with a live run, keeping the requests it built, and starts over for another log', () => {
    const index = createContextIndex()
    const early = index.update(steeredEvents.slice(0, 5))
    const one = early.get(1)
    const later = index.update(steeredEvents)
    expect(later.get(1)).toBe(one)
    expect(early.has(2)).toBe(false)
    expect(messagesOf(later.get(2)!)).toEqual(messagesOf(rebuildContexts(steeredEvents).get(2)!))
    const other = index.update(sampleEvents)
    expect(messagesOf(other.get(2)!).map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool'])
  })

  it('finds the request before an iteration', () => {
    const ctx = rebuildContexts(sampleEvents)
    expect(previousContext(ctx, 2)?.iteration).toBe(1)
    expect(previousContext(ctx, 1)).toBeUndefined()
  })
})

describe('diffContexts', () => {
  it.each([
    {
      name: 'appended turns',
      events: sampleEvents,
      want: [
        ['same', 'system'],
        ['same', 'user'],
        ['added', 'assistant'],
        ['added', 'tool'],
      ],
    },
    {
      name: 'an edited task and a new summary',
      events: steeredEvents,
      want: [
        ['same', 'system'],
        ['removed', 'user'],
        ['added', 'user'],
        ['added', 'user'],
      ],
    },
  ])('$name', ({ events, want }) => {
    const ctx = rebuildContexts(events)
    const diff = diffContexts(messagesOf(ctx.get(1)!), messagesOf(ctx.get(2)!))
    expect(diff.map((d) => [d.op, d.value.role])).toEqual(want)
  })
})
