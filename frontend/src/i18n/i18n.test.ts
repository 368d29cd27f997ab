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

  it('takes the singular of a count of one where there is one', () => {
    expect(t('en', 'evals.run.figures', { n: 1, time: '2 ms' })).toBe('1 iteration · 2 ms')
    expect(t('en', 'evals.run.figures', { n: 3, time: '2 ms' })).toBe('3 iterations · 2 ms')
    expect(t('en', 'evals.cell.errors', { n: 1 })).toBe('1 error')
    expect(t('en', 'run.events_count', { count: 1 })).toBe('1 event')
    expect(t('en', 'preview.tokens', { n: '1' })).toBe('1 token')
    expect(t('zh-CN', 'evals.cell.errors', { n: 1 })).toBe('1 个错误')
    expect(t('en', 'runs.count', { shown: 1, total: 1 })).toBe('1 of 1 runs') // no singular: as it is
  })

  it('gives each singular the placeholders of its plural but the count', () => {
    const en: Record<string, string> = catalogs.en
    for (const key of Object.keys(en).filter((k) => k.endsWith('_one') && k.slice(0, -4) in en)) {
      const count = (s: string) => placeholders(s).filter((p) => p !== 'n' && p !== 'count')
      expect(count(en[key]), key).toEqual(count(en[key.slice(0, -4)]))
    }
  })
})
