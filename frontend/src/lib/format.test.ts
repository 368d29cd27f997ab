import { describe, expect, it } from 'vitest'
import {
  formatBytes,
  formatClock,
  formatCount,
  formatDateTime,
  formatDuration,
  formatPercent,
  formatTokens,
  firstLine,
  oneLine,
  parseTime,
} from './format'

describe('formatDuration', () => {
  it.each([
    [0, '0 ms'],
    [850, '850 ms'],
    [1234, '1.2 s'],
    [42_000, '42 s'],
    [125_000, '2m 05s'],
    [3_720_000, '1h 02m'],
    [-1, '–'],
    [Number.NaN, '–'],
  ])('%d ms -> %s', (ms, want) => {
    expect(formatDuration(ms)).toBe(want)
  })
})

describe('numbers', () => {
  it.each([
    ['en', 1234, '1,234', '1,234'],
    ['en', 12_345, '12,345', '12.3K'],
    ['zh-CN', 12_345, '12,345', '1.2万'],
  ] as const)('%s %d', (lang, n, count, tokens) => {
    expect(formatCount(n, lang)).toBe(count)
    expect(formatTokens(n, lang)).toBe(tokens)
  })

  it('renders bytes in the language', () => {
    expect(formatBytes(512, 'en')).toBe('512 B')
    expect(formatBytes(512, 'zh-CN')).toBe('512 字节')
    expect(formatBytes(1536, 'en')).toBe('1.5 KB')
    expect(formatBytes(3 * 1024 * 1024, 'en')).toBe('3.0 MB')
  })

  it('renders shares as percent', () => {
    expect(formatPercent(0.423, 'en')).toBe('42%')
  })
})

describe('times', () => {
  it('formats date and clock in a given zone', () => {
    expect(formatDateTime('2026-11-30T01:35:01.5Z', 'en', 'UTC')).toBe('11/30/2026, 01:35')
    expect(formatDateTime('2026-11-30T01:35:01.5Z', 'zh-CN', 'UTC')).toBe('2026/11/30 01:35')
    expect(formatClock('2026-11-30T01:35:01.5Z', 'en', 'UTC')).toBe('01:35:01.500')
  })

  it('treats missing, invalid and Go zero times as none', () => {
    expect(parseTime(undefined)).toBeUndefined()
    expect(parseTime('nonsense')).toBeUndefined()
    expect(parseTime('0001-01-01T00:00:00Z')).toBeUndefined()
    expect(formatDateTime('0001-01-01T00:00:00Z', 'en')).toBe('–')
  })
})

describe('oneLine', () => {
  it.each([
    ['a\n  b\tc', 10, 'a b c'],
    ['abcdef', 4, 'abc…'],
    ['总结这个文件夹里的文件', 5, '总结这个…'],
    [undefined, 5, ''],
  ])('%j / %d', (text, max, want) => {
    expect(oneLine(text, max)).toBe(want)
  })
})

describe('firstLine', () => {
  it.each([
    ['## Orders\n\n| order | status |\n|---|---|', 'Orders'],
    ['\n\n- **ORD-7731** shipped', '**ORD-7731** shipped'],
    ['> Nothing was left out.', 'Nothing was left out.'],
    ['1. First\n2. Second', 'First'],
    ['```\ncode\n```', 'code'],
    ['', ''],
  ])('%j -> %j', (md, want) => {
    expect(firstLine(md, 80)).toBe(want)
  })

  it('cuts a long line', () => {
    expect(firstLine('word '.repeat(40), 12)).toBe('word word w…')
  })
})
