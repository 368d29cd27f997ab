import { describe, expect, it } from 'vitest'
import { budgetSeries } from '../lib/budget'
import { planEvents, sampleEvents, steeredEvents } from '../lib/fixture'
import { applyEvent, emptyRun } from '../lib/timeline'
import { budgetKey } from './BudgetChart'

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
