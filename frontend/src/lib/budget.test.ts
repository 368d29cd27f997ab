import { describe, expect, it } from 'vitest'
import { budgetSeries, budgetSplit } from './budget'
import { foldRun } from './timeline'
import { sampleEvents, steeredEvents } from './fixture'

describe('budgetSplit', () => {
  it.each([
    {
      name: 'layers against the window',
      layers: { system: 100, tool_schemas: 200, recent: 300, tool_results: 400 },
      window: 2000,
      total: 1000,
      want: { used: 1000, free: 1000, fill: 0.5, system: 0.05, tool_results: 0.2 },
    },
    {
      name: 'a total above the named layers wins',
      layers: { system: 100 },
      window: 1000,
      total: 400,
      want: { used: 400, free: 600, fill: 0.4, system: 0.1, tool_results: 0 },
    },
    {
      name: 'an overflow',
      layers: { recent: 1500 },
      window: 1000,
      total: 0,
      want: { used: 1500, free: 0, fill: 1.5, system: 0, tool_results: 0 },
    },
    { name: 'no window known', layers: { system: 10 }, window: 0, total: 0, want: { used: 10, free: 0, fill: 0, system: 0, tool_results: 0 } },
  ])('$name', ({ layers, window, total, want }) => {
    const s = budgetSplit(layers, window, total)
    expect(s.layers.map((l) => l.layer)).toEqual(['system', 'tool_schemas', 'task_anchor', 'summary', 'memory', 'recent', 'tool_results'])
    const share = Object.fromEntries(s.layers.map((l) => [l.layer, l.share]))
    expect({ used: s.used, free: s.free, fill: s.fill, system: share.system, tool_results: share.tool_results }).toEqual(want)
  })
})

describe('budgetSeries', () => {
  it('has one point per request, with the compressions marked', () => {
    expect(budgetSeries(foldRun(sampleEvents)).map((p) => [p.iteration, p.total, p.window, p.compressed])).toEqual([
      [1, 900, 128000, false],
      [2, 1000, 128000, false],
    ])
    const steered = budgetSeries(foldRun(steeredEvents))
    expect(steered.map((p) => p.compressed)).toEqual([false, true])
    expect(steered[1].layers).toMatchObject({ system: 200, task_anchor: 60, summary: 40, recent: 0 })
  })
})
