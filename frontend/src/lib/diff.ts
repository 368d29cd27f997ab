// Diffs for the inspector, the timeline's edit marks and the compare views.
// diffSeq aligns two sequences: an LCS over what is left once the common
// head and tail are cut, which is exact and small for the contexts compared
// here; a middle too large for a table is cut at elements both sides hold
// once (patience anchors) first, so a long log diffs in linear time.
// diffText is word-level for an edited sentence, with CJK compared per
// character, and falls back to line level past a size.

export type DiffOp<T> = { op: 'same' | 'added' | 'removed'; value: T }

/** maxCells bounds an LCS table (rows × columns); a larger middle is split at anchors, or given as removed then added. */
const maxCells = 4_000_000

type Step = [op: DiffOp<unknown>['op'], index: number]

/** diffSeq aligns a and b by key and returns the steps from a to b. */
export function diffSeq<T>(a: readonly T[], b: readonly T[], key: (x: T) => string = (x) => String(x)): DiffOp<T>[] {
  const steps: Step[] = []
  diffRange(a.map(key), b.map(key), 0, a.length, 0, b.length, steps)
  return steps.map(([op, i]) => ({ op, value: op === 'added' ? b[i] : a[i] }))
}

function diffRange(ka: string[], kb: string[], a0: number, a1: number, b0: number, b1: number, out: Step[]): void {
  while (a0 < a1 && b0 < b1 && ka[a0] === kb[b0]) {
    out.push(['same', a0])
    a0++
    b0++
  }
  let tail = 0
  while (a1 - tail > a0 && b1 - tail > b0 && ka[a1 - 1 - tail] === kb[b1 - 1 - tail]) tail++
  const ma = a1 - tail - a0
  const mb = b1 - tail - b0
  if (ma * mb <= maxCells) lcs(ka, kb, a0, ma, b0, mb, out)
  else {
    const anchors = uniqueAnchors(ka, kb, a0, a0 + ma, b0, b0 + mb)
    if (anchors.length === 0) {
      for (let i = 0; i < ma; i++) out.push(['removed', a0 + i])
      for (let j = 0; j < mb; j++) out.push(['added', b0 + j])
    } else {
      let pa = a0
      let pb = b0
      for (const [i, j] of anchors) {
        diffRange(ka, kb, pa, i, pb, j, out)
        out.push(['same', i])
        pa = i + 1
        pb = j + 1
      }
      diffRange(ka, kb, pa, a0 + ma, pb, b0 + mb, out)
    }
  }
  for (let i = a1 - tail; i < a1; i++) out.push(['same', i])
}

function lcs(ka: string[], kb: string[], a0: number, ma: number, b0: number, mb: number, out: Step[]): void {
  // t[i][j]: the longest common run of the middles from i and j on. Under
  // maxCells the shorter side is at most 2000, so 16 bits hold it.
  const t: Uint16Array[] = Array.from({ length: ma + 1 }, () => new Uint16Array(mb + 1))
  for (let i = ma - 1; i >= 0; i--) {
    for (let j = mb - 1; j >= 0; j--) {
      t[i][j] = ka[a0 + i] === kb[b0 + j] ? t[i + 1][j + 1] + 1 : Math.max(t[i + 1][j], t[i][j + 1])
    }
  }
  let i = 0
  let j = 0
  while (i < ma || j < mb) {
    if (i < ma && j < mb && ka[a0 + i] === kb[b0 + j]) {
      out.push(['same', a0 + i])
      i++
      j++
    } else if (i < ma && (j === mb || t[i + 1][j] >= t[i][j + 1])) {
      // Removals before additions, as a reader expects of a changed line.
      out.push(['removed', a0 + i])
      i++
    } else {
      out.push(['added', b0 + j])
      j++
    }
  }
}

/** uniqueAnchors pairs the keys found exactly once on each side, keeping the longest run in order on both (patience diff). */
function uniqueAnchors(ka: string[], kb: string[], a0: number, a1: number, b0: number, b1: number): [number, number][] {
  const seen = new Map<string, { ca: number; cb: number; ia: number; ib: number }>()
  for (let i = a0; i < a1; i++) {
    const s = seen.get(ka[i])
    if (s) s.ca++
    else seen.set(ka[i], { ca: 1, cb: 0, ia: i, ib: -1 })
  }
  for (let j = b0; j < b1; j++) {
    const s = seen.get(kb[j])
    if (s) {
      s.cb++
      s.ib = j
    }
  }
  const pairs: [number, number][] = []
  for (const s of seen.values()) if (s.ca === 1 && s.cb === 1) pairs.push([s.ia, s.ib])
  pairs.sort((x, y) => x[0] - y[0])
  // The longest increasing run of b indexes, by patience sorting.
  const tops: number[] = []
  const back = new Int32Array(pairs.length)
  for (let k = 0; k < pairs.length; k++) {
    let lo = 0
    let hi = tops.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (pairs[tops[mid]][1] < pairs[k][1]) lo = mid + 1
      else hi = mid
    }
    back[k] = lo > 0 ? tops[lo - 1] : -1
    tops[lo] = k
  }
  const run: [number, number][] = []
  for (let k = tops.length > 0 ? tops[tops.length - 1] : -1; k >= 0; k = back[k]) run.push(pairs[k])
  return run.reverse()
}

/** diffLines compares two texts line by line. */
export function diffLines(a: string, b: string): DiffOp<string>[] {
  return diffSeq(a === '' ? [] : a.split('\n'), b === '' ? [] : b.split('\n'))
}

/** prettyJSON indents JSON text, or returns it as it is when it does not parse. */
export function prettyJSON(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    return text
  }
}

/** diffJSON compares two JSON texts by their indented lines, so one changed value is one changed line. */
export function diffJSON(a: string, b: string): DiffOp<string>[] {
  return diffLines(prettyJSON(a), prettyJSON(b))
}

// A token is a CJK character (those scripts write no spaces between words),
// a run of letters and digits, a run of white space, or any other character.
const tokenRe = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]|[\p{L}\p{N}_]+|\s+|[^]/gu
const wordChar = /[\p{L}\p{N}_]/u
const cjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u

/** tokenize splits text into the units a word diff compares; joined, they are the text. */
export function tokenize(text: string): string[] {
  return text.match(tokenRe) ?? []
}

/** wordLimit is the most characters, both sides together, a changed stretch is compared word by word. */
export const wordLimit = 64 * 1024

/** TextDiff is a text diff as fragments: the same and removed ones joined are a, the same and added ones b. */
export interface TextDiff {
  ops: DiffOp<string>[]
  /** "word" when every change was compared word by word; "line" when one was too large and was compared by lines. */
  level: 'word' | 'line'
}

/**
 * diffText compares two texts word by word. The common head and tail are
 * cut first (at a word's edge), so a long text with one edit costs what the
 * edit does. A middle longer than wordLimit is compared by lines, and each
 * changed stretch of lines under the limit word by word again.
 */
export function diffText(a: string, b: string): TextDiff {
  let head = 0
  const max = Math.min(a.length, b.length)
  while (head < max && a.charCodeAt(head) === b.charCodeAt(head)) head++
  head = wordStart(a, b, head)
  let tail = 0
  while (tail < max - head && a.charCodeAt(a.length - 1 - tail) === b.charCodeAt(b.length - 1 - tail)) tail++
  tail = wordTail(a, b, tail, head)
  const am = a.slice(head, a.length - tail)
  const bm = b.slice(head, b.length - tail)
  let level: TextDiff['level'] = 'word'
  let middle: DiffOp<string>[]
  if (am.length + bm.length <= wordLimit) middle = diffWords(am, bm)
  else {
    middle = []
    const lines = diffSeq(splitLines(am), splitLines(bm))
    for (let i = 0; i < lines.length; ) {
      if (lines[i].op === 'same') {
        middle.push(lines[i++])
        continue
      }
      let removed = ''
      let added = ''
      for (; i < lines.length && lines[i].op !== 'same'; i++) {
        if (lines[i].op === 'removed') removed += lines[i].value
        else added += lines[i].value
      }
      if (removed.length + added.length <= wordLimit) middle.push(...diffWords(removed, added))
      else {
        level = 'line'
        middle.push({ op: 'removed', value: removed }, { op: 'added', value: added })
      }
    }
  }
  const ops: DiffOp<string>[] = []
  if (head > 0) ops.push({ op: 'same', value: a.slice(0, head) })
  ops.push(...middle)
  if (tail > 0) ops.push({ op: 'same', value: a.slice(a.length - tail) })
  return { ops: merge(ops), level }
}

/** wordStart moves a cut at i, before which a and b agree, back to the start of the word it falls in on either side. */
function wordStart(a: string, b: string, i: number): number {
  while (i > 0 && isWordChar(a, i - 1) && (isWordChar(a, i) || isWordChar(b, i))) i--
  return i
}

/** wordTail shortens a common tail of t characters so that it starts at a word's start on both sides, not reaching into head. */
function wordTail(a: string, b: string, t: number, head: number): number {
  const inWord = (s: string, k: number) => k > head && isWordChar(s, k - 1)
  while (t > 0 && isWordChar(a, a.length - t) && (inWord(a, a.length - t) || inWord(b, b.length - t))) t--
  return t
}

function isWordChar(s: string, i: number): boolean {
  if (i < 0 || i >= s.length) return false
  const c = s[i]
  // A surrogate half belongs to a character that may be a letter: treat it as one.
  if (c >= '\ud800' && c <= '\udfff') return true
  return wordChar.test(c) && !cjk.test(c)
}

function splitLines(s: string): string[] {
  return s.match(/[^\n]*\n|[^\n]+$/g) ?? []
}

/**
 * diffWords diffs two short texts by token; texts that share less than a
 * third are given as one replaced by the other. A stretch of changes with only
 * white space or one punctuation mark between them reads as one change, so
 * "the quick brown" → "a slow red" is one edit, not three word swaps.
 */
function diffWords(a: string, b: string): DiffOp<string>[] {
  const ops = diffSeq(tokenize(a), tokenize(b))
  // Two texts that share little read better as one replaced by the other
  // than as a scatter of common words.
  let same = 0
  for (const d of ops) if (d.op === 'same' && !isGlue(d.value)) same += d.value.length
  if (same * 3 < Math.max(a.length, b.length)) {
    const out: DiffOp<string>[] = []
    if (a) out.push({ op: 'removed', value: a })
    if (b) out.push({ op: 'added', value: b })
    return out
  }
  const out: DiffOp<string>[] = []
  let removed = ''
  let added = ''
  const flush = () => {
    if (removed) out.push({ op: 'removed', value: removed })
    if (added) out.push({ op: 'added', value: added })
    removed = added = ''
  }
  for (let i = 0; i < ops.length; i++) {
    const d = ops[i]
    if (d.op === 'removed') removed += d.value
    else if (d.op === 'added') added += d.value
    else if ((removed || added) && isGlue(d.value) && ops[i + 1] && ops[i + 1].op !== 'same') {
      removed += d.value
      added += d.value
    } else {
      flush()
      out.push(d)
    }
  }
  flush()
  return out
}

function isGlue(token: string): boolean {
  return /^\s+$/.test(token) || (token.length === 1 && !wordChar.test(token))
}

/** merge joins neighbouring fragments of one kind and drops empty ones. */
function merge(ops: DiffOp<string>[]): DiffOp<string>[] {
  const out: DiffOp<string>[] = []
  for (const d of ops) {
    if (!d.value) continue
    const last = out.at(-1)
    if (last && last.op === d.op) out[out.length - 1] = { op: d.op, value: last.value + d.value }
    else out.push({ ...d })
  }
  return out
}

/** Paired is one step of a diff of items where a removed item and the added one that replaces it are shown as one edit. */
export type Paired<T> = DiffOp<T> | { op: 'edited'; from: T; value: T }

/**
 * pairEdits turns, within each stretch of changes, the nth removed item and
 * the nth added one that match (as like says) into one edit, so a changed
 * message reads as the words that changed in it.
 */
export function pairEdits<T>(ops: readonly DiffOp<T>[], like: (a: T, b: T) => boolean): Paired<T>[] {
  const out: Paired<T>[] = []
  for (let i = 0; i < ops.length; ) {
    if (ops[i].op === 'same') {
      out.push(ops[i++])
      continue
    }
    const removed: T[] = []
    const added: T[] = []
    for (; i < ops.length && ops[i].op !== 'same'; i++) (ops[i].op === 'removed' ? removed : added).push(ops[i].value)
    const used = new Set<number>()
    const edits = new Map<number, T>()
    let from = 0
    for (const r of removed) {
      const j = added.findIndex((x, k) => k >= from && !used.has(k) && like(r, x))
      if (j >= 0) {
        used.add(j)
        edits.set(j, r)
        from = j + 1
      } else out.push({ op: 'removed', value: r })
    }
    added.forEach((x, k) => {
      const r = edits.get(k)
      out.push(r === undefined ? { op: 'added', value: x } : { op: 'edited', from: r, value: x })
    })
  }
  return out
}
