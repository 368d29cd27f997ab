import { describe, expect, it } from 'vitest'
import { budgetSeries, layerOrder, type BudgetPoint } from '../lib/budget'
import { planEvents, sampleEvents, steeredEvents } from '../lib/fixture'
import { applyEvent, emptyRun } from '../lib/timeline'
import { budgetKey, stackPaths } from './BudgetChart'

describe('budgetKey', () => {
  it('changes whenever the chart’s series does, so the chart is skipped only for events that leave it as it was', () => {
    for (const events of [sampleEvents, steeredEvents, planEvents]) {
      let view = emptyRun()
      let changes = 0
      for (const e of events) {
        const next = applyEvent(view, e)
        if (budgetKey(next) === budgetKey(view)) expect(budgetSeries(next)).toEqual(budgetSeries(view))
        else changes++
        view = next
      }
      expect(changes).toBeGreaterThan(0)
      expect(changes).toBeLessThan(events.length)
    }
  })
})

describe('stackPaths', () => {
  // The paths as first written: each layer's top and bottom formatted apart.
  const H = 100
  function reference(points: BudgetPoint[], top: number): string[] {
    const y = (v: number) => (H - (v / top) * H).toFixed(2)
    const below = new Array<number>(points.length).fill(0)
    const steps = (values: number[]) => values.flatMap((v, i) => [`${i},${y(v)}`, `${i + 1},${y(v)}`])
    return layerOrder.map((layer) => {
      const lower = below.slice()
      points.forEach((p, i) => (below[i] += p.layers[layer]))
      return `M${steps(below).join('L')}L${steps(lower).reverse().join('L')}Z`
    })
  }

  it('draws the same areas, each edge written once', () => {
    for (const events of [sampleEvents, steeredEvents, planEvents]) {
      let view = emptyRun()
      for (const e of events) view = applyEvent(view, e)
      const points = budgetSeries(view)
      expect(points.length).toBeGreaterThan(0)
      for (const top of [1, 1000, 5000.5]) expect(stackPaths(points, top)).toEqual(reference(points, top))
    }
    expect(stackPaths([], 1)).toEqual(reference([], 1))
  })
})
