import { describe, expect, it } from 'vitest'
import type { HermesEvent } from '../api/types'
import { alignFork, compareRequests, decisionText, sourceNumber, splitCallMeta } from './compare'
import { rebuildContexts } from './context'
import { sampleEvents } from './fixture'
import { replayIteration, replayTo } from './replay'
import { foldRun } from './timeline'

describe('splitCallMeta', () => {
  it('takes _meta out of a plan run’s call, as the agent does before the call runs', () => {
    const { rest, meta } = splitCallMeta('{"path":"notes.md","_meta":{"step":2,"step_status":"continue","serves_goal":"read the notes"}}')
    expect(rest).toBe('{"path":"notes.md"}')
    expect(meta).toEqual({ step: '2', text: 'continue · read the notes' })
    expect(splitCallMeta('{"path":"a","_meta":{"step":"step 3"}}').meta?.step).toBe('3')
  })

  it('leaves arguments without _meta, or that do not parse, as they are', () => {
    expect(splitCallMeta('{"path":"a"}')).toEqual({ rest: '{"path":"a"}', meta: null })
    expect(splitCallMeta('{"_meta": oops')).toEqual({ rest: '{"_meta": oops', meta: null })
  })
})

/** run builds a run's events: iteration n's call (or answer) and the request it sent. */
function run(id: string, turns: { call?: string; answer?: string; user?: string }[], forkedAt = 0): HermesEvent[] {
  let seq = 0
  const ev = (iteration: number, type: string, data: unknown): HermesEvent => ({ v: 1, run_id: id, seq: ++seq, time: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(), iteration, type, data })
  const out = [ev(0, 'run.started', { task: 'sum the notes', model: 'm', tools: ['read_file'], ...(forkedAt ? { forked_from: { run_id: 'src', iteration: forkedAt } } : {}) })]
  turns.forEach((t, i) => {
    const n = i + 1
    out.push(ev(n, 'iteration.started', {}))
    out.push(ev(n, 'context.built', { full: true, messages: [{ role: 'system', content: 'You are Hermes.' }, { role: 'user', content: t.user ?? 'Sum the notes in notes.md' }] }))
    out.push(
      ev(n, 'model.decided', t.call ? { tool_calls: [{ id: `c${n}`, name: t.call, arguments: `{"path":"${t.call}.md","_meta":{"step":${n}}}`, valid: true }] } : { final_answer: t.answer }),
    )
  })
  return out
}

describe('compare two iterations', () => {
  it('says which words of an edited message changed, and what each decided', () => {
    const events = run('r', [{ call: 'list_files' }, { call: 'read_file', user: 'Sum the notes in todo.md' }])
    const ctx = rebuildContexts(events)
    const ops = compareRequests(ctx.get(1)!, ctx.get(2)!)
    expect(ops.map((d) => d.op)).toEqual(['same', 'edited'])
    const view = foldRun(events)
    expect(decisionText(view.iterations[1])).toBe('→ list_files({"path":"list_files.md"})')
    expect(decisionText(view.iterations[2])).toBe('→ read_file({"path":"read_file.md"})')
  })
})

describe('alignFork', () => {
  it('lines a fork up with its source at the fork point and marks the iterations that differ', () => {
    const source = foldRun(run('src', [{ call: 'list_files' }, { call: 'read_file' }, { call: 'read_file' }, { answer: 'done' }]))
    const fork = foldRun(run('fork', [{ call: 'read_file' }, { call: 'write_file' }], 2))
    const al = alignFork(source, fork)
    expect(al.at).toBe(2)
    expect(al.rows.map((r) => [r.kind, r.source?.n ?? null, r.fork?.n ?? null, r.differs])).toEqual([
      ['shared', 1, null, false],
      ['point', 2, 1, false],
      ['after', 3, 2, true],
      ['after', 4, null, true],
    ])
    expect([al.compared, al.differ]).toEqual([3, 2])
    expect(sourceNumber(2, 1)).toBe(2)
  })
})

describe('replayIteration', () => {
  it('is the card of the last event a replay shows', () => {
    expect(replayIteration(replayTo(sampleEvents, null, 0).view, sampleEvents, 0)).toBeNull()
    expect(replayIteration(replayTo(sampleEvents, null, 3).view, sampleEvents, 3)).toBe(1)
    const end = replayTo(sampleEvents, null, sampleEvents.length)
    expect(replayIteration(end.view, sampleEvents, sampleEvents.length)).toBe(2)
  })
})
