import { describe, expect, it } from 'vitest'
import { diffJSON, diffLines, diffSeq, diffText, pairEdits, prettyJSON, tokenize, wordLimit, type DiffOp } from './diff'

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

/** sides rebuilds both texts from a text diff: its fragments must be all of each. */
const sides = (ops: DiffOp<string>[]) => [ops.filter((d) => d.op !== 'added').map((d) => d.value).join(''), ops.filter((d) => d.op !== 'removed').map((d) => d.value).join('')]
const changes = (ops: DiffOp<string>[]) => ops.filter((d) => d.op !== 'same').map((d) => `${d.op === 'added' ? '+' : '-'}${d.value}`)

describe('diffText', () => {
  it('shows the words an edited sentence changed, not the whole sentence', () => {
    const a = 'Write the summary in notes.md and keep it short.'
    const b = 'Write the summary in report.md and keep it very short.'
    const d = diffText(a, b)
    expect(d.level).toBe('word')
    expect(changes(d.ops)).toEqual(['-notes', '+report', '+ very'])
    expect(sides(d.ops)).toEqual([a, b])
  })

  it('cuts the common head and tail at a word’s edge, never inside a word', () => {
    expect(changes(diffText('the cat sat', 'the cart sat').ops)).toEqual(['-cat', '+cart'])
    expect(changes(diffText('ca', 'cart').ops)).toEqual(['-ca', '+cart'])
    expect(changes(diffText('a running dog', 'a sprinting dog').ops)).toEqual(['-running', '+sprinting'])
  })

  it('reads neighbouring word swaps with only a space between as one change', () => {
    expect(changes(diffText('the quick brown fox', 'the slow red fox').ops)).toEqual(['-quick brown', '+slow red'])
  })

  it('gives two texts that share little as one replaced by the other', () => {
    expect(changes(diffText('Reading Monday.', 'Monday ships the timeline; Tuesday reviews the fork.').ops)).toEqual([
      '-Reading Monday',
      '+Monday ships the timeline; Tuesday reviews the fork',
    ])
  })

  it('compares CJK text per character', () => {
    expect(tokenize('今天天气很好')).toEqual(['今', '天', '天', '气', '很', '好'])
    expect(changes(diffText('今天天气很好，我们去公园。', '今天天气不好，我们去图书馆。').ops)).toEqual(['-很', '+不', '-公园', '+图书馆'])
    expect(changes(diffText('用 read_file 读 notes.md', '用 write_file 写 notes.md').ops)).toEqual(['-read_file 读', '+write_file 写'])
  })

  it('handles empty sides and equal texts', () => {
    expect(diffText('', '').ops).toEqual([])
    expect(diffText('', 'new').ops).toEqual([{ op: 'added', value: 'new' }])
    expect(diffText('old', '').ops).toEqual([{ op: 'removed', value: 'old' }])
    expect(diffText('same', 'same').ops).toEqual([{ op: 'same', value: 'same' }])
  })

  it('diffs a 1 MB text with edits at both ends, falling back to lines and words within them', () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i}: the agent read file ${i} and found ${i * 7} rows\n`)
    const a = lines.join('')
    const edited = lines.slice()
    edited[3] = 'line 3: the agent wrote file 3 and found 21 rows\n'
    edited[19_990] = 'line 19990: the agent read file 19990 and found none\n'
    const b = edited.join('')
    expect(a.length).toBeGreaterThan(1_000_000)
    const d = diffText(a, b)
    expect(sides(d.ops)).toEqual([a, b])
    expect(changes(d.ops)).toEqual(['-read', '+wrote', '-139930 rows', '+none'])
  })

  it('gives a changed stretch too large for words as removed then added lines', () => {
    const a = 'x'.repeat(wordLimit) + '\nend\n'
    const b = 'y'.repeat(wordLimit) + '\nend\n'
    const d = diffText(a, b)
    expect(d.level).toBe('line')
    expect(sides(d.ops)).toEqual([a, b])
    expect(d.ops.map((x) => x.op)).toEqual(['removed', 'added', 'same'])
  })
})

describe('diffSeq on long sequences', () => {
  it('splits a middle too large for a table at the elements both sides hold once', () => {
    const a = Array.from({ length: 6000 }, (_, i) => `a${i}`)
    const b = a.map((x, i) => (i % 1000 === 500 ? `b${i}` : x))
    const d = diffSeq(a, b)
    expect(d.filter((x) => x.op !== 'added').map((x) => x.value)).toEqual(a)
    expect(d.filter((x) => x.op !== 'removed').map((x) => x.value)).toEqual(b)
    expect(d.filter((x) => x.op === 'added')).toHaveLength(6)
  })
})

describe('pairEdits', () => {
  it('pairs a removed item with the added one like it, in order', () => {
    const ops = diffSeq(['s:old system', 'u:task', 't:r1'], ['s:new system', 'u:task', 't:r1', 'a:call'])
    const sameRole = (x: string, y: string) => x[0] === y[0]
    expect(pairEdits(ops, sameRole)).toEqual([
      { op: 'edited', from: 's:old system', value: 's:new system' },
      { op: 'same', value: 'u:task' },
      { op: 'same', value: 't:r1' },
      { op: 'added', value: 'a:call' },
    ])
    expect(pairEdits(diffSeq(['u:a', 't:b'], ['a:c']), sameRole)).toEqual([
      { op: 'removed', value: 'u:a' },
      { op: 'removed', value: 't:b' },
      { op: 'added', value: 'a:c' },
    ])
  })
})
