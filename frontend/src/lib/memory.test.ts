import { describe, expect, it } from 'vitest'
import type { HermesEvent, MemoryEntry } from '../api/types'
import { summarizeEvent } from './events'
import { foldRun } from './timeline'
import { filterMemories, memorySource, memoryUse, whyRecalled } from './memory'

const entries: MemoryEntry[] = [
  { id: 3, kind: 'preference', text: '以后总是用中文回答', created: '2026-11-30T01:00:00Z' },
  { id: 2, kind: 'fact', text: 'The budget is 4,500 EUR', run_id: '20261130-010000-aaaaaa', created: '2026-11-29T01:00:00Z' },
  { id: 1, kind: 'outcome', text: 'Summarised the meeting notes', run_id: '20261128-010000-bbbbbb', created: '2026-11-28T01:00:00Z' },
]

describe('filterMemories', () => {
  it.each([
    ['', '', [3, 2, 1]],
    ['budget', '', [2]],
    ['BUDGET eur', '', [2]],
    ['中文', '', [3]],
    ['bbbbbb', '', [1]],
    ['', 'fact', [2]],
    ['notes', 'fact', []],
  ])('query %j, kind %j', (query, kind, want) => {
    expect(filterMemories(entries, query, kind).map((e) => e.id)).toEqual(want)
  })
})

describe('memorySource and whyRecalled', () => {
  it('says where a memory came from, and that an old one is unknown unless its kind tells', () => {
    expect(memorySource({ kind: 'preference', source: 'standing' }, 'en')).toBe('standing instructions')
    expect(memorySource({ kind: 'preference', source: 'instruction' }, 'zh-CN')).toBe('运行中插入的指令')
    expect(memorySource({ kind: 'outcome' }, 'en')).toBe('result')
    expect(memorySource({ kind: 'preference' }, 'en')).toBe('unknown')
    expect(memorySource({ kind: 'fact', source: 'later' }, 'en')).toBe('later')
  })
  it.each([
    [{ reason: 'pinned' }, 'en', 'pinned: recalled for every task'],
    [{ reason: 'preference' }, 'zh-CN', '偏好：适用于每个任务'],
    [{ reason: 'match', terms: ['q3', 'report'], score: 3.204 }, 'en', 'matched q3, report (score 3.20)'],
    [{ reason: 'match', terms: ['销售', '报告'], score: 1.5 }, 'zh-CN', '匹配 销售、报告（得分 1.50）'],
    [{ reason: 'match', terms: ['q3', 'report'], score: 3.204, relevance: 0.54 }, 'en', 'matched q3, report (54% relevant to the task)'],
    [{ reason: 'match', terms: ['销售', '报告'], score: 1.5, relevance: 0.8 }, 'zh-CN', '匹配 销售、报告（与任务的相关度 80%）'],
    [{ reason: 'later' }, 'en', 'later'],
  ] as const)('%j in %s', (why, lang, want) => {
    expect(whyRecalled({ ...why, terms: 'terms' in why ? [...why.terms] : undefined }, lang)).toBe(want)
  })
  it('finds a memory by its source', () => {
    const withSource: MemoryEntry[] = [{ id: 4, kind: 'preference', text: 'Use tabs', source: 'standing', created: '' }]
    expect(filterMemories(withSource, 'standing').map((e) => e.id)).toEqual([4])
  })
})

describe('memoryUse', () => {
  it('says a run’s memory when it is not the default, in both languages', () => {
    expect(memoryUse(undefined, 'en')).toBe('')
    expect(memoryUse({ mode: 'on' }, 'en')).toBe('')
    expect(memoryUse({ mode: 'off' }, 'en')).toBe('off for this run: nothing recalled, nothing kept')
    expect(memoryUse({ mode: 'off' }, 'zh-CN')).toBe('本次运行关闭：不召回，也不保存')
    expect(memoryUse({ mode: 'read', as_of: '2026-11-30T01:00:00Z' }, 'en', 'UTC')).toBe('recalled only, nothing kept; only memories written before 11/30/2026, 01:00')
    expect(memoryUse({ mode: 'on', as_of: '2026-11-30T01:00:00Z' }, 'zh-CN', 'UTC')).toBe('召回，并保存运行验证过的内容；只用 2026/11/30 01:00 之前写下的记忆')
  })
})

describe('memory.recalled in the timeline', () => {
  const ev = (seq: number, type: string, data: unknown): HermesEvent => ({ v: 1, run_id: 'r', seq, time: '2026-11-30T01:00:00Z', iteration: 0, type, data })
  const recalled = {
    entries: [
      { id: 1, kind: 'preference', text: 'Skip the daily notes; they repeat the project notes.', source: 'standing', run_id: 'r0', reason: 'preference' },
      { id: 2, kind: 'outcome', text: 'Task: Q3\nOutcome: 1,204,000', source: 'result', run_id: 'r0', reason: 'match', terms: ['q3'], score: 2.5 },
    ],
  }
  const view = foldRun([ev(1, 'run.started', { task: 'Update Q3' }), ev(2, 'memory.recalled', recalled)])

  it('marks the run start with the memories recalled and why', () => {
    const marks = view.iterations[0].items.flatMap((i) => (i.kind === 'mark' ? [i.mark] : []))
    const mark = marks.find((m) => m.kind === 'recalled')
    expect(mark).toMatchObject({ kind: 'recalled', seq: 2, data: recalled })
  })
  it('names the event in both languages', () => {
    expect(summarizeEvent(ev(2, 'memory.recalled', recalled), 'en')).toBe('2 long-term memories recalled')
    expect(summarizeEvent(ev(2, 'memory.recalled', recalled), 'zh-CN')).toBe('召回了 2 条长期记忆')
  })
})
