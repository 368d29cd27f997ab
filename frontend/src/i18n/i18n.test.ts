import { describe, expect, it } from 'vitest'
import { catalogs, detectLang, parseLang, t } from './i18n'

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()

describe('catalogs', () => {
  it('has the same keys and placeholders in both languages, none empty', () => {
    const en = catalogs.en
    const zh = catalogs['zh-CN']
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort())
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(zh[key].length, key).toBeGreaterThan(0)
      expect(placeholders(zh[key]), key).toEqual(placeholders(en[key]))
    }
  })
})

describe('parseLang', () => {
  it.each([
    ['zh', 'zh-CN'],
    ['zh-CN', 'zh-CN'],
    ['zh-Hans-CN', 'zh-CN'],
    ['zh_CN.UTF-8', 'zh-CN'],
    ['en-GB', 'en'],
    ['EN', 'en'],
    ['fr-FR', undefined],
    ['', undefined],
    [null, undefined],
  ])('%s -> %s', (input, want) => {
    expect(parseLang(input)).toBe(want)
  })
})

describe('detectLang', () => {
  it.each([
    { stored: 'zh-CN', backend: 'en', browser: ['en-US'], want: 'zh-CN' },
    { stored: null, backend: 'zh-CN', browser: ['en-US'], want: 'zh-CN' },
    { stored: null, backend: '', browser: ['fr-FR', 'zh-TW'], want: 'zh-CN' },
    { stored: 'de', backend: '', browser: ['fr-FR'], want: 'en' },
  ])('stored=$stored backend=$backend browser=$browser -> $want', ({ stored, backend, browser, want }) => {
    expect(detectLang(stored, backend, browser)).toBe(want)
  })
})

describe('t', () => {
  it('fills placeholders and leaves unknown ones visible', () => {
    expect(t('en', 'runs.count', { shown: 2, total: 5 })).toBe('2 of 5 runs')
    expect(t('zh-CN', 'runs.count', { shown: 2, total: 5 })).toBe('显示 2 / 共 5 次运行')
    expect(t('en', 'runs.count', { shown: 2 })).toBe('2 of {total} runs')
  })
})
