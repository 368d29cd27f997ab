import { describe, expect, it } from 'vitest'
import { foldRun } from './timeline'
import { nextIterationStart, prevIterationStart, replayTo } from './replay'
import { sampleEvents, steeredEvents } from './fixture'

describe('replayTo', () => {
  it.each([
    ['sample', sampleEvents],
    ['steered', steeredEvents],
  ] as const)('draws at every point what a fold of the events so far draws, forward and back (%s)', (_, events) => {
    let r = replayTo(events, null, 0)
    for (let n = 1; n <= events.length; n++) {
      r = replayTo(events, r, n)
      expect(r.view).toEqual(foldRun(events.slice(0, n)))
    }
    for (const n of [5, 2, 9, 0]) {
      r = replayTo(events, r, n)
      expect(r.view).toEqual(foldRun(events.slice(0, n)))
    }
    expect(r.shown).toBe(0)
  })

  it('keeps within the run', () => {
    expect(replayTo(sampleEvents, null, 99).shown).toBe(sampleEvents.length)
    expect(replayTo(sampleEvents, null, -3).shown).toBe(0)
  })
})

describe('iteration steps', () => {
  // sampleEvents: seq 2 starts iteration 1, seq 11 starts iteration 2.
  it.each([
    [0, 2],
    [2, 11],
    [5, 11],
    [11, sampleEvents.length],
  ])('next from %d shows %d', (from, want) => {
    expect(nextIterationStart(sampleEvents, from)).toBe(want)
  })

  it.each([
    [15, 2],
    [11, 2],
    [5, 0],
    [0, 0],
  ])('previous from %d shows %d', (from, want) => {
    expect(prevIterationStart(sampleEvents, from)).toBe(want)
  })
})
