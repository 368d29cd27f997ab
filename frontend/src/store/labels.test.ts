import { describe, expect, it } from 'vitest'
import { createLabelsStore } from './labels'
import { testApi } from './testapi'

describe('labels store', () => {
  it('loads the labels and keeps one set', async () => {
    const t = testApi({ labels: { r1: { label: 'good' } } })
    const s = createLabelsStore(t.api)
    await s.load()
    expect(s.get().byRun.r1.label).toBe('good')
    expect(await s.mark('r2', 'bad', 'made it up')).toBe(true)
    expect(s.get().byRun.r2).toMatchObject({ label: 'bad', note: 'made it up' })
    expect(t.calls).toContain('setLabel("r2", "bad", "made it up")')
    expect(await s.mark('r1', '', '')).toBe(true)
    expect(s.get().byRun.r1).toBeUndefined()
  })
  it('says why a label was not kept', async () => {
    const t = testApi()
    const s = createLabelsStore(t.api)
    t.fail('setLabel', new Error('not the owner'))
    expect(await s.mark('r1', 'good', '')).toBe(false)
    expect(s.get().error?.message).toBe('not the owner')
  })
})
