import { describe, expect, it } from 'vitest'
import type { Notice } from '../api/types'
import { applyNotice, dismissKey, updateAction, updateNotes, updateProgress } from './notices'

const broken: Notice = { id: 'config', kind: 'config_error', time: '2026-11-30T01:00:00Z', problems: [{ line: 3, column: 1, message: { en: 'x' } }] }
const reloaded: Notice = { id: 'config', kind: 'config_reloaded', time: '2026-11-30T01:01:00Z' }
const update = (state: string, done = 0): Notice => ({
  id: 'update',
  kind: 'update',
  time: '2026-11-30T01:02:00Z',
  update: { state, installed: '1.0.0', version: '1.1.0', notes: 'Faster.', notes_zh: '更快。', done, total: 200 },
})

describe('notices', () => {
  it('replaces a notice by its id, and a reload clears the config’s', () => {
    let list = applyNotice([], broken)
    list = applyNotice(list, update('downloading', 50))
    list = applyNotice(list, update('downloading', 100))
    expect(list.map((n) => [n.kind, n.update?.done])).toEqual([
      ['config_error', undefined],
      ['update', 100],
    ])
    expect(applyNotice(list, reloaded).map((n) => n.kind)).toEqual(['update'])
  })

  it('keeps a dismissed download from hiding the update once it is ready', () => {
    expect(dismissKey(update('downloading', 10))).toBe(dismissKey(update('downloading', 90)))
    expect(dismissKey(update('downloading'))).not.toBe(dismissKey(update('ready')))
    expect(dismissKey(broken)).not.toBe(dismissKey({ ...broken, time: '2026-11-30T02:00:00Z' }))
  })

  it('offers the restart, hermes update, or for a .deb install the package manager', () => {
    expect(updateAction(update('downloading'))).toBeNull()
    expect(updateAction({ ...update('ready'), restart: true })).toBe('restart')
    expect(updateAction(update('ready'))).toBe('cli')
    const deb = update('ready')
    deb.update = { ...deb.update!, form: 'package', package: '/h/updates/1.1.0/hermes_1.1.0_amd64.deb', command: 'sudo apt install /h/updates/1.1.0/hermes_1.1.0_amd64.deb' }
    expect(updateAction({ ...deb, restart: true })).toBe('package')
    expect(updateAction(deb)).toBe('package')
  })

  it('measures the download and picks the notes of the language', () => {
    expect(updateProgress(update('downloading', 50).update!)).toBe(0.25)
    expect(updateProgress({ state: 'ready', installed: '1.0.0' })).toBe(1)
    expect(updateProgress({ state: 'downloading', installed: '1.0.0' })).toBe(0)
    expect(updateNotes(update('ready').update!, 'zh-CN')).toBe('更快。')
    expect(updateNotes(update('ready').update!, 'en')).toBe('Faster.')
    expect(updateNotes({ state: 'ready', installed: '1', notes: 'Only English.' }, 'zh-CN')).toBe('Only English.')
  })
})
