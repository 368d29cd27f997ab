import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// No module of the frontend imports itself through others: a circle makes
// the order its modules start in depend on which one was imported first,
// and two files that cannot be read apart. Type-only imports count too.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** sources are the TypeScript files under dirs, relative to root. */
function sources(dirs: string[]): string[] {
  const out: string[] = []
  const walk = (dir: string) => {
    for (const name of readdirSync(join(root, dir))) {
      const path = join(dir, name)
      if (statSync(join(root, path)).isDirectory()) walk(path)
      else if (/\.tsx?$/.test(name)) out.push(path)
    }
  }
  dirs.forEach(walk)
  return out.sort()
}

/** localImports are the files of the frontend that file imports, as TypeScript reads its import and export declarations. */
function localImports(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true)
  const out: string[] = []
  for (const { fileName: spec } of importedFiles) {
    if (!spec.startsWith('.')) continue
    const base = join(dirname(file), spec)
    const found = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')].find((p) => /\.tsx?$/.test(p) && existsSync(join(root, p)))
    if (found) out.push(relative(root, join(root, found)))
  }
  return out
}

/**
 * importCycles finds each circle of graph (file → files it imports): one
 * per strongly connected part, written as the path around it from its first
 * file in order, back to that file.
 */
function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's strongly connected components.
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const parts: string[][] = []
  let next = 0
  const visit = (v: string) => {
    index.set(v, next)
    low.set(v, next)
    next++
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!))
      }
    }
    if (low.get(v) === index.get(v)) {
      const part: string[] = []
      let w: string
      do {
        w = stack.pop()!
        onStack.delete(w)
        part.push(w)
      } while (w !== v)
      if (part.length > 1 || (graph.get(v) ?? []).includes(v)) parts.push(part)
    }
  }
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v)

  // A path around each part: from its first file back to it, by a
  // breadth-first search inside the part.
  return parts
    .map((part) => {
      const inPart = new Set(part)
      const start = [...part].sort()[0]
      const from = new Map<string, string>()
      const queue = [start]
      while (queue.length) {
        const v = queue.shift()!
        for (const w of graph.get(v) ?? []) {
          if (!inPart.has(w)) continue
          if (w === start) {
            const path = [start]
            for (let u = v; u !== start; u = from.get(u)!) path.splice(1, 0, u)
            return [...path, start]
          }
          if (!from.has(w)) {
            from.set(w, v)
            queue.push(w)
          }
        }
      }
      return [start, start]
    })
    .sort((a, b) => a[0].localeCompare(b[0]))
}

describe('importCycles', () => {
  it('names each circle once, as a path around it', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c', 'd']],
      ['c', ['a']],
      ['d', []],
      ['e', ['e']],
      ['f', ['d']],
    ])
    expect(importCycles(graph)).toEqual([
      ['a', 'b', 'c', 'a'],
      ['e', 'e'],
    ])
  })

  it('finds none in a tree', () => {
    expect(importCycles(new Map([['a', ['b', 'c']], ['b', ['c']], ['c', []]]))).toEqual([])
  })
})

describe('the frontend imports', () => {
  it('have no circle', () => {
    const graph = new Map(sources(['src', 'e2e', 'bench']).map((f) => [f, localImports(f)]))
    expect(graph.get('src/ui/RunPage.tsx')).toContain('src/ui/Inspector.tsx')
    const circles = importCycles(graph).map((c) => c.join(' → '))
    expect(circles, `import circles (move what both sides need into a module of its own):\n${circles.join('\n')}`).toEqual([])
  })
})
