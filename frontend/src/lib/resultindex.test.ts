import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { HermesEvent } from '../api/types'
import { createContextIndex, rebuildContexts } from './context'
import { toolResultIndexes } from './pins'
import { createResultIndex } from './resultindex'

// The recorded runs of backend/runner/sample: controls.jsonl holds a
// compression, so a request rewrites the conversation (full) mid-run.
const recorded = (name: string): HermesEvent[] =>
  readFileSync(new URL(`../../../backend/runner/sample/${name}.jsonl`, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as HermesEvent)

describe('the live indexes of requests and tool results', () => {
  it.each(['sample', 'controls'])('agree with a whole rebuild after every event of %s.jsonl', (name) => {
    const events = recorded(name)
    const contexts = createContextIndex()
    const results = createResultIndex()
    for (let i = 1; i <= events.length; i++) {
      const prefix = events.slice(0, i)
      expect(results.update(contexts.update(prefix))).toEqual(toolResultIndexes(rebuildContexts(prefix)))
    }
  })

  it('keep their identity while no request is built, so the cards that take them are not drawn again', () => {
    const events = recorded('controls')
    const contexts = createContextIndex()
    const results = createResultIndex()
    let prevContexts = contexts.update([])
    let prevResults = results.update(prevContexts)
    for (let i = 1; i <= events.length; i++) {
      const c = contexts.update(events.slice(0, i))
      const r = results.update(c)
      const built = events[i - 1].type === 'context.built'
      expect(c === prevContexts).toBe(!built)
      if (!built) expect(r).toBe(prevResults)
      prevContexts = c
      prevResults = r
    }
  })

  it('start over when the contexts are another run’s', () => {
    const results = createResultIndex()
    results.update(rebuildContexts(recorded('controls')))
    const sample = rebuildContexts(recorded('sample'))
    expect(results.update(sample)).toEqual(toolResultIndexes(sample))
  })
})
