import { describe, expect, it } from 'vitest'
import { diffJSON, diffLines, diffSeq, prettyJSON } from './diff'

const ops = <T>(d: { op: string; value: T }[]) => d.map((x) => `${x.op === 'same' ? ' ' : x.op === 'added' ? '+' : '-'}${String(x.value)}`)

describe('diffSeq', () => {
  it.each([
    { a: [], b: [], want: [] },
    { a: ['a'], b: [], want: ['-a'] },
    { a: [], b: ['a'], want: ['+a'] },
    { a: ['a', 'b', 'c'], b: ['a', 'b', 'c'], want: [' a', ' b', ' c'] },
    { a: ['a', 'b', 'c'], b: ['a', 'x', 'c'], want: [' a', '-b', '+x', ' c'] },
    { a: ['a', 'b', 'c', 'd'], b: ['b', 'c', 'e'], want: ['-a', ' b', ' c', '-d', '+e'] },
    { a: ['x', 'a', 'y'], b: ['a', 'z', 'a'], want: ['-x', ' a', '-y', '+z', '+a'] },
  ])('$a -> $b', ({ a, b, want }) => {
    expect(ops(diffSeq(a, b))).toEqual(want)
  })

  it('keeps every element of both sides exactly once', () => {
    const a = 'the quick brown fox jumps over the lazy dog'.split(' ')
    const b = 'a quick red fox jumped over the dog again'.split(' ')
    const d = diffSeq(a, b)
    expect(d.filter((x) => x.op !== 'added').map((x) => x.value)).toEqual(a)
    expect(d.filter((x) => x.op !== 'removed').map((x) => x.value)).toEqual(b)
  })
})

describe('diffLines and diffJSON', () => {
  it('compares texts by line', () => {
    expect(ops(diffLines('Write notes\nBe brief', 'Write short notes\nBe brief'))).toEqual(['-Write notes', '+Write short notes', ' Be brief'])
    expect(ops(diffLines('', 'new'))).toEqual(['+new'])
  })

  it('shows one changed value of a call as one changed line', () => {
    const d = diffJSON('{"path":"a.md","content":"draft"}', '{"path":"a.md","content":"final"}')
    expect(ops(d)).toEqual([' {', '   "path": "a.md",', '-  "content": "draft"', '+  "content": "final"', ' }'])
  })

  it('leaves text that is not JSON as it is', () => {
    expect(prettyJSON('{oops')).toBe('{oops')
  })
})
