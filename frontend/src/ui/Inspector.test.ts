import { describe, expect, it } from 'vitest'
import { createContextIndex, messagesOf } from '../lib/context'
import { sampleEvents } from '../lib/fixture'
import { MessageView } from './Inspector'

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
