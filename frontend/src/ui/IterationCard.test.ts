import { describe, expect, it } from 'vitest'
import { applyEvents, emptyRun, foldRun } from '../lib/timeline'
import { steeredEvents } from '../lib/fixture'
import type { RunSummary } from '../api/types'
import { indexRuns, upsertRun } from '../lib/runs'
import { forksAt, markShown, sameCard, type CardProps } from './IterationCard'
import { createContextIndex } from '../lib/context'
import { createResultIndex } from '../lib/resultindex'
import { sampleEvents } from '../lib/fixture'
import type { IterationView } from '../lib/timeline'
import { translator } from '../i18n/i18n'
import type { Pins } from './MessageView'

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

describe('forksAt', () => {
  const run = (id: string, started: string, over: Partial<RunSummary> = {}): RunSummary => ({
    run_id: id,
    task: `task ${id}`,
    status: 'finished',
    model: 'm',
    workspace: '/w',
    started,
    iterations: 1,
    tokens: 10,
    tool_calls: 0,
    verified: true,
    path: `logs/${id}.jsonl`,
    live: false,
    title: '',
    paused: false,
    sample: false,
    ...over,
  })

  it('lists the forks of an iteration newest first, and gives cards without one the same empty list whatever else changes', () => {
    const index = indexRuns([
      run('src', '2026-11-28T10:00:00Z', { live: true }),
      run('f1', '2026-11-29T10:00:00Z', { forked_from: { run_id: 'src', iteration: 3 } }),
      run('f2', '2026-11-30T10:00:00Z', { forked_from: { run_id: 'src', iteration: 3 } }),
      run('f3', '2026-11-30T11:00:00Z', { forked_from: { run_id: 'src', iteration: 5 } }),
    ])
    expect(forksAt(index, 'src', 3).map((r) => r.run_id)).toEqual(['f2', 'f1'])
    expect(forksAt(index, 'src', 5).map((r) => r.run_id)).toEqual(['f3'])
    const none = forksAt(index, 'src', 4)
    expect(none).toEqual([])
    // The live run's summary changes at each checkpoint: a card with no fork keeps its (empty) list.
    const next = upsertRun(index, run('src', '2026-11-28T10:00:00Z', { live: true, iterations: 7 }))
    expect(next).not.toBe(index)
    expect(forksAt(next, 'src', 4)).toBe(none)
    expect(forksAt(next, 'other', 3)).toBe(none)
    // Asked again of the same list, the answer is the same object: worked out once per list.
    expect(forksAt(next, 'src', 3)).toBe(forksAt(next, 'src', 3))
  })
})

describe('sameCard', () => {
  it('draws a card again when its own tool results got their index, not when another card’s did', () => {
    // Folded event by event as a live run is: the request of iteration 2
    // carries the result of iteration 1's call, which its card can then pin.
    const contexts = createContextIndex()
    const results = createResultIndex()
    const props = (it: IterationView, resultIndexes: Map<string, number>): CardProps => ({ it, lang: 'en', t: translator('en'), selected: false, streaming: false, onSelect: noop, onFork: noop, onArtifact: noop, pins, resultIndexes, hit: null })
    let before = new Map<number, CardProps>()
    let redrawn = 0
    let kept = 0
    let view = emptyRun()
    for (let i = 1; i <= sampleEvents.length; i++) {
      const seen = sampleEvents.slice(0, i)
      view = applyEvents(view, seen.slice(-1))
      const indexes = results.update(contexts.update(seen))
      const now = new Map(view.iterations.map((it) => [it.n, props(it, indexes)]))
      for (const [n, b] of before) {
        const a = now.get(n)!
        if (a.it !== b.it || a.resultIndexes === b.resultIndexes) continue
        const same = a.it.calls.every((c) => a.resultIndexes.get(c.id) === b.resultIndexes.get(c.id))
        expect(sameCard(b, a)).toBe(same)
        if (same) kept++
        else redrawn++
      }
      before = now
    }
    // Card #1 got c1's index from #2's request; the start card did not change.
    expect(redrawn).toBeGreaterThan(0)
    expect(kept).toBeGreaterThan(0)
    const first = [...before.values()][1]
    expect(sameCard(first, { ...first, selected: true })).toBe(false)
    expect(sameCard(first, { ...first })).toBe(true)
  })
})

const noop = () => {}
const pins: Pins = { live: false, pinned: [], asked: [], onPin: noop }
