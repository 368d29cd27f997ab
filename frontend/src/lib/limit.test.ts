import { describe, expect, it } from 'vitest'
import type { HermesEvent } from '../api/types'
import { kindOf, summarizeEvent } from './events'
import { foldRun } from './timeline'

const ev = (seq: number, iteration: number, type: string, data: unknown): HermesEvent => ({ v: 1, run_id: 'l', seq, time: '2026-12-01T11:00:00Z', iteration, type, data })

// A run of at most 5 iterations, told in its fourth that two are left.
const events: HermesEvent[] = [
  ev(1, 0, 'run.started', { task: 'wander', max_iterations: 5 }),
  ev(2, 3, 'iteration.started', {}),
  ev(3, 4, 'iteration.started', {}),
  ev(4, 4, 'limit.near', { limit: 'max_iterations', left: 2, max: 5 }),
]

describe('limit.near', () => {
  it('marks the iteration the model was told to wrap up in', () => {
    const view = foldRun(events)
    const three = view.iterations.find((it) => it.n === 3)
    const four = view.iterations.find((it) => it.n === 4)
    expect(three?.itersLeft).toBe(0)
    expect(four?.itersLeft).toBe(2)
    expect(four?.items).toEqual([{ kind: 'mark', seq: 4, mark: { kind: 'limit_near', seq: 4, data: { limit: 'max_iterations', left: 2, max: 5 } } }])
  })

  it('reads as a warning in both languages', () => {
    expect(kindOf('limit.near')).toBe('guard')
    expect(summarizeEvent(events[3], 'en')).toBe('2 of 5 iterations left; the model was told to wrap up')
    expect(summarizeEvent(events[3], 'zh-CN')).toBe('5 轮中仅剩 2 轮；已提示模型收尾')
  })
})
