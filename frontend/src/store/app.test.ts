import { describe, expect, it } from 'vitest'
import { ApiError } from '../api/api'
import { createAppStore, type KeyValue } from './app'
import { testApi } from './testapi'

function memoryStorage(init: Record<string, string> = {}): KeyValue & { data: Record<string, string> } {
  const data = { ...init }
  return { data, getItem: (k) => data[k] ?? null, setItem: (k, v) => void (data[k] = v) }
}

describe('createAppStore', () => {
  it('follows the backend language unless the user chose one, and follows live runs', async () => {
    const a = testApi({ language: 'zh-CN' })
    const s1 = createAppStore({ api: a.api, storage: memoryStorage(), browserLanguages: ['en-US'] })
    expect(s1.get().lang).toBe('en')
    await s1.start()
    expect(s1.get().lang).toBe('zh-CN')
    expect(a.runListeners).toHaveLength(1)
    expect(s1.runs.get().status).toBe('ready')

    const b = testApi({ language: 'zh-CN' })
    const s2 = createAppStore({ api: b.api, storage: memoryStorage({ 'hermes.lang': 'en' }), browserLanguages: ['zh-CN'] })
    await s2.start()
    expect(b.calls).not.toContain('language()')
    expect(s2.get().lang).toBe('en')
  })

  it('remembers language and theme choices', () => {
    const storage = memoryStorage()
    const store = createAppStore({ api: testApi().api, storage, browserLanguages: [] })
    store.setLang('zh-CN')
    store.setTheme('dark')
    expect(storage.data).toEqual({ 'hermes.lang': 'zh-CN', 'hermes.theme': 'dark' })
    const again = createAppStore({ api: testApi().api, storage, browserLanguages: ['en'] })
    expect(again.get()).toMatchObject({ lang: 'zh-CN', theme: 'dark' })
  })

  it('loads the settings the new run form shows', async () => {
    const t = testApi()
    const store = createAppStore({ api: t.api, storage: null, browserLanguages: [] })
    await store.loadSettings()
    expect(store.get().settings).toMatchObject({ status: 'ready', value: { has_key: false, model: 'm' } })
    t.fail('settings', new ApiError('no token', { status: 401 }))
    await store.loadSettings()
    expect(store.get().settings).toMatchObject({ status: 'error', error: { status: 401 } })
  })

  it('saves the vault and shows the settings hermes.toml has then; a refusal is the caller\'s to show', async () => {
    const t = testApi()
    const store = createAppStore({ api: t.api, storage: null, browserLanguages: [] })
    await store.loadSettings()
    await store.setVault('/notes')
    expect(t.calls).toContain('setVault("/notes")')
    expect(store.get().settings).toMatchObject({ status: 'ready', value: { tools: { vault: '/notes' } } })
    t.fail('setVault', new ApiError('not a folder', { code: 'bad_vault', status: 400 }))
    await expect(store.setVault('/gone')).rejects.toMatchObject({ code: 'bad_vault' })
    expect(store.get().settings).toMatchObject({ status: 'ready', value: { tools: { vault: '/notes' } } })
  })

  it('reports a model check that could not be made as a failed check in both languages', async () => {
    const t = testApi()
    const store = createAppStore({ api: t.api, storage: null, browserLanguages: [] })
    expect(await store.checkModel({ model: 'm' })).toEqual({ ok: true, key_sent: false })
    t.fail('checkModel', new ApiError('bad', { code: 'unreachable', messages: { en: 'not reachable', 'zh-CN': '无法连接' } }))
    expect(await store.checkModel({ model: 'm' })).toEqual({ ok: false, key_sent: false, error: { code: 'unreachable', message: { en: 'not reachable', 'zh-CN': '无法连接' } } })
  })
})
