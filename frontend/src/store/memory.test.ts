import { describe, expect, it } from 'vitest'
import { ApiError } from '../api/api'
import { createMemoryStore, memoryListLimit } from './memory'
import { testApi } from './testapi'

const memory = [
  { id: 2, kind: 'fact', text: 'The budget is 4,500', run_id: 'r1', created: '2026-11-30T01:00:00Z' },
  { id: 1, kind: 'outcome', text: 'Summarised the notes', run_id: 'r0', created: '2026-11-29T01:00:00Z', pinned: true },
]

describe('createMemoryStore', () => {
  it('lists, searches, pins and forgets', async () => {
    const t = testApi({ memory })
    const store = createMemoryStore(t.api)
    await store.load()
    expect(t.calls).toContain(`memories(${memoryListLimit})`)
    expect(store.get().status).toBe('ready')
    expect(store.shown().map((e) => e.id)).toEqual([2, 1])
    store.setQuery('budget')
    expect(store.shown().map((e) => e.id)).toEqual([2])
    store.setQuery('')
    store.setKind('outcome')
    expect(store.shown().map((e) => e.id)).toEqual([1])
    store.setKind('')

    expect(await store.pin(2, true)).toBe(true)
    expect(store.get().entries.find((e) => e.id === 2)?.pinned).toBe(true)
    expect(await store.forget(1)).toBe(true)
    expect(store.get().entries.map((e) => e.id)).toEqual([2])
    expect(t.memory.map((e) => e.id)).toEqual([2])
  })

  it('keeps an entry whose forget failed, and says why', async () => {
    const t = testApi({ memory })
    const store = createMemoryStore(t.api)
    await store.load()
    t.fail('forgetMemory', new ApiError('locked', { code: 'store_locked', messages: { en: 'locked', 'zh-CN': '被锁定' } }))
    expect(await store.forget(2)).toBe(false)
    expect(store.get().entries).toHaveLength(2)
    expect(store.get().actionError?.messageIn('zh-CN')).toBe('被锁定')
  })

  it('shows why the list could not be read', async () => {
    const t = testApi()
    t.fail('memories', new ApiError('locked', { code: 'store_locked' }))
    const store = createMemoryStore(t.api)
    await store.load()
    expect(store.get()).toMatchObject({ status: 'error', error: { code: 'store_locked' } })
  })
})
