import { describe, expect, it } from 'vitest'
import { judgeReasons, labelMatches, pairFor, resultsOf, variantLabel, type EvalDetail, type EvalResult } from './evals'

const result = (task: string, variant: string, rep: number, pass: boolean, extra: Partial<EvalResult> = {}): EvalResult => ({
  task, variant, rep, pass, run_id: `${task}-${variant}-${rep}`, iterations: 1, tokens: 10, duration_ms: 5, ...extra,
})

const detail: EvalDetail = {
  id: 'ev-1', suite: 'notes', suite_path: '/s/notes.toml', tasks: ['t'], variants: [{ Model: 'a' }, { Name: 'cold', Model: 'b' }],
  repeat: 2, state: 'done', started: '2026-01-01T00:00:00Z', cells: [],
  results: [result('t', 'a', 1, true), result('t', 'a', 0, true), result('t', 'cold', 0, true), result('t', 'cold', 1, false, { checks: [{ kind: 'judge', pass: false, detail: 'score 0.20 (pass at 0.50): invents a note' }] })],
}

describe('evals', () => {
  it('names variants as the results do', () => {
    expect(variantLabel({ Name: 'cold', Model: 'b' })).toBe('cold')
    expect(variantLabel({ Model: 'b' })).toBe('b')
    expect(variantLabel({})).toBe('default')
  })
  it('lists a cell\'s runs by repetition', () => {
    expect(resultsOf(detail, 't', 'a').map((r) => r.rep)).toEqual([0, 1])
  })
  it('pairs a failed run with the other variant\'s first', () => {
    const pair = pairFor(detail, 't', 'a', 'cold')
    expect(pair?.map((r) => r.run_id)).toEqual(['t-a-0', 't-cold-1'])
    expect(pairFor(detail, 't', 'a', 'nope')).toBeNull()
  })
  it('keeps the judge\'s reasons', () => {
    expect(judgeReasons(resultsOf(detail, 't', 'cold'))).toEqual([
      { rep: 1, pass: false, ungraded: false, score: undefined, passAt: undefined, reason: '', detail: 'score 0.20 (pass at 0.50): invents a note' },
    ])
    const judged = [
      result('t', 'a', 0, true, { checks: [{ kind: 'file', pass: true, detail: 'x' }, { kind: 'judge', pass: true, detail: 'score 0.85 (pass at 0.70): fine', score: 0.85, pass_at: 0.7, reason: 'fine' }] }),
      result('t', 'a', 1, false, { ungraded: true, error: 'the judge\'s answer holds no score', checks: [{ kind: 'judge', pass: false, detail: 'not graded', pass_at: 0.7, ungraded: true }] }),
    ]
    expect(judgeReasons(judged)).toEqual([
      { rep: 0, pass: true, ungraded: false, score: 0.85, passAt: 0.7, reason: 'fine', detail: 'score 0.85 (pass at 0.70): fine' },
      { rep: 1, pass: false, ungraded: true, score: undefined, passAt: 0.7, reason: '', detail: 'not graded' },
    ])
  })
  it('filters by label', () => {
    expect(labelMatches({ label: 'bad' }, 'bad')).toBe(true)
    expect(labelMatches({ label: 'bad' }, 'good')).toBe(false)
    expect(labelMatches(undefined, 'none')).toBe(true)
    expect(labelMatches({ label: 'good' }, '')).toBe(true)
  })
})
