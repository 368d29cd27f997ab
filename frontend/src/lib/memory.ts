import type { MemoryEntry } from '../api/types'

export const memoryKinds = ['outcome', 'fact', 'preference', 'path'] as const

/**
 * filterMemories keeps the entries whose text, kind or source run contains
 * every word of query (any case), of kind when one is given; order is kept.
 */
export function filterMemories(entries: readonly MemoryEntry[], query: string, kind = ''): MemoryEntry[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  return entries.filter((e) => {
    if (kind && e.kind !== kind) return false
    const hay = `${e.text}\n${e.kind}\n${e.run_id ?? ''}`.toLowerCase()
    return words.every((w) => hay.includes(w))
  })
}
