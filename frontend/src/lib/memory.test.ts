import { describe, expect, it } from 'vitest'
import type { MemoryEntry } from '../api/types'
import { filterMemories } from './memory'

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
