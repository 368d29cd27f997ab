import { describe, expect, it } from 'vitest'
import { foldRun } from '../lib/timeline'
import { steeredEvents } from '../lib/fixture'
import { markShown } from './IterationCard'

describe('markShown', () => {
  it('leaves a call’s approval to the call, so "Allowed once" shows once on its card', () => {
    const view = foldRun(steeredEvents)
    const approvals = view.iterations.flatMap((it) => {
      const calls = new Map(it.calls.map((c) => [c.id, c]))
      return it.items.flatMap((item) => (item.kind === 'mark' && item.mark.kind === 'approval' ? [{ shown: markShown(item.mark, calls), call: calls.get(item.mark.callId) }] : []))
    })
    expect(approvals.length).toBeGreaterThan(0)
    for (const a of approvals) {
      expect(a.shown).toBe(false)
      expect(a.call?.approval?.decision).not.toBe('')
    }
    expect(markShown({ kind: 'approval', seq: 1, callId: 'elsewhere', data: {} }, new Map())).toBe(true)
  })
})
