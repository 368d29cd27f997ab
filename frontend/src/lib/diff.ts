// Line and sequence diffs for the inspector and the timeline's edit marks.
// An LCS over what is left once the common head and tail are cut: the
// contexts compared here share almost everything, so what remains is small.

export type DiffOp<T> = { op: 'same' | 'added' | 'removed'; value: T }

/** diffSeq aligns a and b by key and returns the steps from a to b. */
export function diffSeq<T>(a: readonly T[], b: readonly T[], key: (x: T) => string = (x) => String(x)): DiffOp<T>[] {
  const ka = a.map(key)
  const kb = b.map(key)
  let head = 0
  while (head < a.length && head < b.length && ka[head] === kb[head]) head++
  let tail = 0
  while (tail < a.length - head && tail < b.length - head && ka[a.length - 1 - tail] === kb[b.length - 1 - tail]) tail++
  const ma = a.length - head - tail
  const mb = b.length - head - tail
  // lcs[i][j]: the longest common run of the middles from i and j on.
  const lcs: Uint32Array[] = Array.from({ length: ma + 1 }, () => new Uint32Array(mb + 1))
  for (let i = ma - 1; i >= 0; i--) {
    for (let j = mb - 1; j >= 0; j--) {
      lcs[i][j] = ka[head + i] === kb[head + j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1])
    }
  }
  const out: DiffOp<T>[] = a.slice(0, head).map((value) => ({ op: 'same', value }))
  let i = 0
  let j = 0
  while (i < ma || j < mb) {
    if (i < ma && j < mb && ka[head + i] === kb[head + j]) {
      out.push({ op: 'same', value: a[head + i] })
      i++
      j++
    } else if (i < ma && (j === mb || lcs[i + 1][j] >= lcs[i][j + 1])) {
      // Removals before additions, as a reader expects of a changed line.
      out.push({ op: 'removed', value: a[head + i] })
      i++
    } else {
      out.push({ op: 'added', value: b[head + j] })
      j++
    }
  }
  for (const value of a.slice(a.length - tail)) out.push({ op: 'same', value })
  return out
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
