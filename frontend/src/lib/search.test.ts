import { describe, expect, it } from 'vitest'
import type { HermesEvent } from '../api/types'
import { planEvents, sampleEvents, steeredEvents } from './fixture'
import { createSearchIndex, facets, hitIn, iterationDocs, nearest, noFilters, search, snippet, step } from './search'
import { applyEvents, foldRun } from './timeline'

const ev = (seq: number, type: string, iteration: number, data: unknown): HermesEvent => ({ v: 1, run_id: 'long', seq, time: '2026-12-01T10:00:00Z', iteration, type, data })

// longRun is a run of n iterations, each a thought and a read_file call;
// iteration 250 reads a file no other does, and iteration 7 thinks aloud.
function longRun(n: number): HermesEvent[] {
  const out: HermesEvent[] = [ev(1, 'run.started', 0, { task: 'Audit the vault', tools: ['read_file'] })]
  for (let i = 1; i <= n; i++) {
    const s = () => out.length + 1
    if (i === 7) out.push(ev(s(), 'model.reasoning', i, { text: 'The user wants the hidden-lemma checked.' }))
    out.push(ev(s(), 'model.decided', i, { thought: `Reading note ${i}.`, reasoning: i === 7 ? 'The user wants the hidden-lemma checked.' : undefined, tool_calls: [{ id: `c${i}`, name: 'read_file', arguments: `{"path":"notes/${i}.md"}`, valid: true }] }))
    out.push(ev(s(), 'tool.finished', i, { call_id: `c${i}`, name: 'read_file', ok: true, result: i === 250 ? 'The needle-42 is here, and needle-42 again.' : `# Note ${i}` }))
  }
  return out
}

describe('search', () => {
  const index = createSearchIndex()

  it('finds a string in iteration 250 of 300, every match of it, with where it is', () => {
    const docs = index.docs(foldRun(longRun(300)))
    const { hits, more } = search(docs, 'NEEDLE-42')
    expect(more).toBe(false)
    expect(hits).toHaveLength(2)
    expect(hits[0]).toMatchObject({ n: 250, field: 'result', callId: 'c250', start: 4, end: 13 })
    expect(hits[1].start).toBe(27)
    expect(snippet(docs[hits[0].doc].text, hits[0].start, hits[0].end)).toEqual({ before: 'The ', match: 'needle-42', after: ' is here, and needle-42 again.' })
  })

  it('finds the reasoning, arguments, task, guard messages and errors', () => {
    const long = index.docs(foldRun(longRun(10)))
    expect(search(long, 'hidden-lemma').hits.map((h) => [h.n, h.field])).toEqual([[7, 'reasoning']])
    expect(search(long, 'notes/3.md').hits.map((h) => [h.n, h.field, h.callId])).toEqual([[3, 'arguments', 'c3']])
    expect(search(long, 'audit the').hits.map((h) => [h.n, h.field])).toEqual([[0, 'task']])

    const sample = index.docs(foldRun(sampleEvents))
    expect(search(sample, 'last tool call failed').hits.map((h) => [h.n, h.field])).toEqual([[1, 'guard']])
    expect(search(sample, 'list_files to see').hits.map((h) => [h.n, h.field, h.callId])).toEqual([[1, 'error', 'c1']])
    expect(search(sample, 'no README').hits.map((h) => [h.n, h.field])).toEqual([[2, 'answer']])
  })

  it('filters by event type, tool, status and stage, and lists what a filter keeps with no query', () => {
    const steered = index.docs(foldRun(steeredEvents))
    expect(search(steered, '', { ...noFilters, flag: 'denied' }).hits.map((h) => [h.n, h.field, h.callId])).toEqual([
      [2, 'arguments', 'w2'],
      [2, 'error', 'w2'],
      [2, 'denial', 'w2'],
    ])
    expect(search(steered, 'final', { ...noFilters, type: 'tool.finished' }).hits.map((h) => h.field)).toEqual(['error'])
    expect(search(steered, 'brief', noFilters).hits.map((h) => [h.field, h.seq > 0])).toEqual([
      ['instructions', true],
      ['instructions', true],
    ])

    const plan = index.docs(foldRun(planEvents))
    expect(search(plan, 'ORD-1', { ...noFilters, tool: 'lookup_order', flag: 'failed' }).hits.map((h) => h.field)).toEqual(['arguments', 'error'])
    expect(search(plan, '', { ...noFilters, flag: 'guard' }).hits.map((h) => [h.n, h.field])).toEqual([[3, 'guard']])
    expect(search(plan, 'shipped', { ...noFilters, type: 'model.decided', stage: 'deciding' }).hits.map((h) => [h.n, h.field])).toEqual([
      [4, 'answer'],
      [5, 'answer'],
    ])
    expect(search(plan, 'shipped', { ...noFilters, stage: 'planning' }).hits).toEqual([])
    expect(facets(plan)).toMatchObject({ tools: ['lookup_order', 'read_file', 'write_file'], stages: ['deciding'] })
    expect(facets(plan).types).toContain('guard.tripped')
  })

  it('asks for nothing without a query or a filter, and stops at the limit', () => {
    const docs = index.docs(foldRun(longRun(50)))
    expect(search(docs, '  ').hits).toEqual([])
    const capped = search(docs, 'note', noFilters, 10)
    expect(capped.hits).toHaveLength(10)
    expect(capped.more).toBe(true)
  })

  it('takes the query as text, not as a pattern', () => {
    const docs = iterationDocs(foldRun(longRun(3)).iterations[2])
    expect(search(docs, '{"path"').hits).toHaveLength(1)
    expect(search(docs, '.*').hits).toHaveLength(0)
  })

  it('reads a card again only when its view changed', () => {
    const idx = createSearchIndex()
    const events = longRun(3)
    const before = foldRun(events.slice(0, -1))
    const first = idx.docs(before)
    const after = applyEvents(before, events.slice(-1))
    const second = idx.docs(after)
    // Cards 0 to 2 kept their views, and their docs are the same objects.
    const kept = first.filter((d) => d.n < 3)
    expect(second.filter((d) => d.n < 3).every((d, i) => d === kept[i])).toBe(true)
    expect(search(second, '# Note 3').hits).toHaveLength(1)
    expect(search(first, '# Note 3').hits).toHaveLength(0)
  })
})

describe('step, nearest and hitIn', () => {
  it('goes to the iteration closest to the one asked for', () => {
    expect(nearest([0, 1, 2, 5], 4)).toBe(5)
    expect(nearest([0, 1, 2, 5], 99)).toBe(5)
    expect(nearest([0, 1, 2, 5], -3)).toBe(0)
    expect(nearest([], 3)).toBe(null)
  })

  it('wraps around the hits', () => {
    expect(step(-1, 1, 3)).toBe(0)
    expect(step(-1, -1, 3)).toBe(2)
    expect(step(2, 1, 3)).toBe(0)
    expect(step(0, -1, 3)).toBe(2)
    expect(step(0, 1, 0)).toBe(-1)
  })

  it('places a hit in its field, call and mark', () => {
    const hit = { field: 'result' as const, callId: 'c1', seq: 0, start: 0, end: 1 }
    expect(hitIn(hit, 'result', 'c1')).toBe(true)
    expect(hitIn(hit, ['result', 'error'], 'c1')).toBe(true)
    expect(hitIn(hit, 'result', 'c2')).toBe(false)
    expect(hitIn(null, 'result', 'c1')).toBe(false)
  })
})
