import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { openKey } from '../lib/panels'

// The recipe of docs/development.md ("Adding a UI panel"): a panel is a
// component that draws a <Panel id="NAME">, and its id names what the page
// remembers of it in localStorage (lib/panels.ts). Two panels with one id
// would open, close and size together.

const dir = new URL('.', import.meta.url)

/** panelIds are the ids of every <Panel> drawn under ui/, with the file each is in. */
function panelIds(): { file: string; id: string }[] {
  const out: { file: string; id: string }[] = []
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.tsx')).sort()) {
    const text = readFileSync(new URL(file, dir), 'utf8')
    for (const m of text.matchAll(/<Panel(?=\s)[\s\S]*?\sid=(?:"([^"]*)"|(\{))/g)) out.push({ file, id: m[1] ?? m[2] })
  }
  return out
}

describe('the run page panels', () => {
  const panels = panelIds()

  it('are found', () => {
    expect(panels).toContainEqual({ file: 'PlanPanel.tsx', id: 'plan' })
    expect(panels).toContainEqual({ file: 'RunPage.tsx', id: 'budget' })
  })

  it('each have an id of their own, written as it is, that no key of the panels takes', () => {
    for (const { file, id } of panels) {
      // A letter first, no dot: the page keeps `${id}.height` beside it.
      expect(id, `${file}: a <Panel>'s id is a literal such as id="name"`).toMatch(/^[a-z][a-z0-9_-]*$/)
      expect(`hermes.panel.${id}`, `${file}: the id "${id}" is the key of the panel open over the timeline`).not.toBe(openKey)
    }
    const seen = new Map<string, string>()
    for (const { file, id } of panels) {
      expect(seen.get(id), `the id "${id}" is taken twice (${seen.get(id)} and ${file})`).toBeUndefined()
      seen.set(id, file)
    }
  })
})
