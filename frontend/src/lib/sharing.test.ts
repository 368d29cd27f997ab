import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { HermesEvent } from '../api/types'
import { applyEvents, emptyRun } from './timeline'

// The live page folds each frame's events onto the view it drew; a card
// whose iteration got no event must be the very object it was, so its
// memoised component is not drawn again (ui/IterationCard.tsx).
const recorded = (name: string): HermesEvent[] =>
  readFileSync(new URL(`../../../backend/runner/sample/${name}.jsonl`, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as HermesEvent)

describe('folding a live run frame by frame', () => {
  it.each([1, 3])('keeps every card no event touched, in batches of %i', (size) => {
    const events = recorded('controls')
    let view = emptyRun()
    for (let i = 0; i < events.length; i += size) {
      const batch = events.slice(i, i + size)
      const next = applyEvents(view, batch)
      const touched = new Set(batch.map((e) => e.iteration))
      const before = new Map(view.iterations.map((it) => [it.n, it]))
      for (const it of next.iterations) {
        if (touched.has(it.n)) expect(it).not.toBe(before.get(it.n))
        else expect(it).toBe(before.get(it.n))
      }
      // Run-wide parts no event of the batch changed keep their identity too.
      if (!batch.some((e) => e.type.startsWith('route.') || e.type.startsWith('plan.') || e.type.startsWith('step.') || e.type.startsWith('question.') || e.type.startsWith('completion.'))) {
        expect(next.plan).toBe(view.plan)
      }
      view = next
    }
    // A batch the view has seen changes nothing.
    expect(applyEvents(view, events.slice(-2))).toBe(view)
  })
})
