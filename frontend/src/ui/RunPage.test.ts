import { describe, expect, it } from 'vitest'
import { createContextIndex } from '../lib/context'
import { planEvents, sampleEvents, steeredEvents } from '../lib/fixture'
import { applyEvents, emptyRun, foldRun, modelIterations } from '../lib/timeline'
import { Controls } from './Controls'
import { Inspector } from './Inspector'
import { RunSearch } from './RunSearch'
import { iterationCount, shownIteration, shownView } from './RunPage'

const isMemo = (c: unknown) => (c as { $$typeof: symbol }).$$typeof === Symbol.for('react.memo')

describe('RunPage on a live fold', () => {
  it('gives the header, the search bar and the inspector the same props when an event changes only a card', () => {
    // The header's controls, the search bar and the inspector are memoised,
    // so props that keep their identity (or value) mean they are not drawn again.
    expect(isMemo(Controls)).toBe(true)
    expect(isMemo(RunSearch)).toBe(true)
    expect(isMemo(Inspector)).toBe(true)
    // An event that only adds to a card: a tool's result after the run's first request.
    const at = sampleEvents.findIndex((e, i) => i > 2 && e.type.startsWith('tool.'))
    expect(at).toBeGreaterThan(0)
    const before = foldRun(sampleEvents.slice(0, at))
    const after = applyEvents(before, sampleEvents.slice(at, at + 1))
    expect(after.iterations).not.toBe(before.iterations)
    // What the page's shell selects of the run keeps its value or identity, so the shell is not drawn again.
    const shell = (v: typeof before) => [v.status, v.paused, v.pendingApproval, v.answer, v.eventCount > 0, v.task, v.plan, v.model, v.baseUrl, v.tools, v.pinnedMessages]
    shell(after).forEach((x, i) => expect(x).toBe(shell(before)[i]))
    // The inspector's inputs: the pins, the endpoint and the requests keep their identity.
    expect(after.pinnedMessages).toBe(before.pinnedMessages)
    expect(after.tools).toBe(before.tools)
    const index = createContextIndex()
    const ctxBefore = index.update(sampleEvents.slice(0, at))
    expect(index.update(sampleEvents.slice(0, at + 1))).toBe(ctxBefore)
  })
})

describe('iterationCount', () => {
  it('counts the model turns as modelIterations does, at every event of the fixtures’ runs', () => {
    for (const log of [sampleEvents, steeredEvents, planEvents]) {
      let view = emptyRun()
      expect(iterationCount(view)).toBe(0)
      for (const e of log) {
        view = applyEvents(view, [e])
        expect(iterationCount(view)).toBe(modelIterations(view).length)
      }
    }
  })
})

describe('shownIteration', () => {
  it('is the selected iteration, else the last, of the replay when replaying', () => {
    const view = foldRun(sampleEvents)
    const last = view.iterations.at(-1)
    expect(shownIteration({ view, replay: null, selected: null })).toBe(last)
    const first = view.iterations[0]
    expect(shownIteration({ view, replay: null, selected: first.n })).toBe(first)
    // An iteration the view does not have: the last.
    expect(shownIteration({ view, replay: null, selected: 999 })).toBe(last)
    const early = foldRun(sampleEvents.slice(0, 3))
    const replay = { view: early, shown: 3, playing: false, speed: 10 } as unknown as Parameters<typeof shownView>[0]['replay']
    expect(shownView({ view, replay })).toBe(early)
    expect(shownIteration({ view, replay, selected: null })).toBe(early.iterations.at(-1))
  })
})
