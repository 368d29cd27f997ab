import { describe, expect, it } from 'vitest'
import { ApiError } from '../api/api'
import type { Notice } from '../api/types'
import { createNoticesStore, toastMs, type Later } from './notices'
import { testApi } from './testapi'

// A Later the test fires by hand.
function manualLater() {
  const pending: { fn: () => void; ms: number }[] = []
  const later: Later = (fn, ms) => {
    const p = { fn, ms }
    pending.push(p)
    return () => void pending.splice(pending.indexOf(p), 1)
  }
  return { later, pending, fire: () => pending.splice(0).forEach((p) => p.fn()) }
}

const broken: Notice = { id: 'config', kind: 'config_error', time: '2026-11-30T01:00:00Z', problems: [{ line: 4, column: 1, message: { en: 'unknown key' } }] }
const reloaded: Notice = { id: 'config', kind: 'config_reloaded', time: '2026-11-30T01:01:00Z', message: { en: 'reloaded' } }
const progress = (state: string, done: number): Notice => ({
  id: 'update',
  kind: 'update',
  time: `2026-11-30T01:0${done}:00Z`,
  update: { state, installed: '1.0.0', version: '1.1.0', notes: 'Faster.', done, total: 4 },
  restart: true,
})

describe('createNoticesStore', () => {
  it('lists the notices in force, then follows the stream', async () => {
    const t = testApi({ notices: [broken] })
    const { later, pending, fire } = manualLater()
    const store = createNoticesStore(t.api, later)
    await store.start()
    expect(t.calls.indexOf('watchNotices()')).toBeLessThan(t.calls.indexOf('notices()'))
    expect(store.shown()).toEqual([broken])

    t.noticeListeners.forEach((l) => l(reloaded))
    expect(store.shown()).toEqual([])
    expect(store.get().toast).toBe(reloaded)
    expect(pending.map((p) => p.ms)).toEqual([toastMs])
    fire()
    expect(store.get().toast).toBeNull()
  })

  it('does not let the list bring back a notice the stream replaced', async () => {
    const t = testApi({ notices: [broken] })
    t.hold('notices')
    const store = createNoticesStore(t.api, manualLater().later)
    const started = store.start()
    t.noticeListeners.forEach((l) => l(reloaded))
    await t.release('notices')
    await started
    expect(store.shown()).toEqual([])
  })

  it('shows the download, then the restart, and says when the restart failed', async () => {
    const t = testApi()
    const store = createNoticesStore(t.api, manualLater().later)
    await store.start()
    const tell = (n: Notice) => t.noticeListeners.forEach((l) => l(n))
    tell(progress('downloading', 1))
    store.dismiss(store.shown()[0])
    tell(progress('downloading', 3))
    expect(store.shown()).toEqual([])
    tell(progress('ready', 4))
    expect(store.shown().map((n) => n.update?.state)).toEqual(['ready'])

    t.fail('installUpdate', new ApiError('failed', { messages: { en: 'could not install', 'zh-CN': '安装失败' } }))
    expect(await store.installUpdate()).toBe(false)
    expect(store.get()).toMatchObject({ installing: false })
    expect(store.get().installError?.messageIn('en')).toBe('could not install')
    expect(await store.installUpdate()).toBe(true)
    expect(store.get().installing).toBe(true)
  })
})
