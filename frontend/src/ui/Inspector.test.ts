import { describe, expect, it } from 'vitest'
import { createContextIndex, messagesOf } from '../lib/context'
import { sampleEvents } from '../lib/fixture'
import { messageSlice, shownMessages } from './Inspector'
import { MessageView } from './MessageView'

describe('MessageView', () => {
  it('is memoised on messages that keep their identity from one request to the next', () => {
    // A live run's next request carries the messages of the one before as
    // the same objects, so the memoised views of those are not drawn again.
    const index = createContextIndex()
    const firstEnd = sampleEvents.findIndex((e, i) => i > 0 && e.type === 'context.built' && e.iteration > 1)
    const before = index.update(sampleEvents.slice(0, firstEnd))
    const after = index.update(sampleEvents)
    const a = messagesOf(before.get(1)!)
    const b = messagesOf(after.get(2)!)
    expect(b.length).toBeGreaterThan(a.length)
    a.forEach((m, i) => expect(b[i]).toBe(m))
    expect((MessageView as unknown as { $$typeof: symbol }).$$typeof).toBe(Symbol.for('react.memo'))
  })
})

describe('shownMessages', () => {
  it('draws a request’s messages a slice at a time: all of a short one, the first slice of a long one, more as asked', () => {
    expect(shownMessages(0, messageSlice)).toBe(0)
    expect(shownMessages(12, messageSlice)).toBe(12)
    // A live run's request at iteration 150: about 300 messages, 40 drawn.
    expect(shownMessages(302, messageSlice)).toBe(messageSlice)
    expect(shownMessages(302, 2 * messageSlice)).toBe(2 * messageSlice)
    expect(shownMessages(302, 10 * messageSlice)).toBe(302)
    // The request grows while the list stays where it was scrolled.
    expect(shownMessages(304, 2 * messageSlice)).toBe(2 * messageSlice)
  })
})
