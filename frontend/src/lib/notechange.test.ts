import { describe, expect, it } from 'vitest'
import { changedLinks, readChange, showValue } from './notechange'

// A rename's change as the backend writes it (vault.Change).
const rename = {
  tool: 'rename_note',
  notes: [
    { path: 'Test/a.md', links: [{ line: 3, before: '[[Plan]]', after: '[[Plan 2024]]' }], hunks: [{ line: 3, before: ['See [[Plan]].'], after: ['See [[Plan 2024]].'] }], after_sha256: 'x' },
    { path: 'Plan.md', new_path: 'Archive/Plan 2024.md', after_sha256: 'y' },
    { path: '表格.md', links: [{ line: 1, before: '[[Plan\\|p]]', after: '[[Plan 2024\\|p]]' }, { line: 2, before: '[[Plan#^id]]', after: '[[Plan 2024#^id]]' }], after_sha256: 'z' },
  ],
}

describe('readChange', () => {
  it('reads every note of a rename, its links and lines', () => {
    const c = readChange(rename)
    expect(c?.tool).toBe('rename_note')
    expect(c?.notes.map((n) => [n.path, n.newPath ?? ''])).toEqual([
      ['Test/a.md', ''],
      ['Plan.md', 'Archive/Plan 2024.md'],
      ['表格.md', ''],
    ])
    expect(c?.notes[0].hunks).toEqual([{ line: 3, before: 'See [[Plan]].', after: 'See [[Plan 2024]].' }])
    expect(changedLinks(c!)).toEqual({ links: 3, notes: 2 })
  })

  it('reads properties and sections, and whether a key is added or removed', () => {
    const c = readChange({
      tool: 'set_property',
      notes: [{ path: 'Plan.md', properties: [{ name: 'status', before: 'draft', after: 'done' }, { name: '标签', after: ['科幻', '已读'], added: true }], sections_added: ['Risks'] }],
    })
    expect(c?.notes[0].properties).toEqual([
      { name: 'status', before: 'draft', after: 'done', added: false, removed: false },
      { name: '标签', before: undefined, after: ['科幻', '已读'], added: true, removed: false },
    ])
    expect(c?.notes[0].sectionsAdded).toEqual(['Risks'])
    expect(c?.notes[0].created).toBe(false)
  })

  it('is null for what is not a change, so the dialog shows the arguments alone', () => {
    expect(readChange(undefined)).toBeNull()
    expect(readChange('x')).toBeNull()
    expect(readChange({ tool: 'edit_note', notes: [] })).toBeNull()
    expect(readChange({ notes: [{ nopath: 1 }] })).toBeNull()
  })
})

describe('showValue', () => {
  it('writes lists as items and empty values as a dash', () => {
    expect(showValue(['科幻', '已读'])).toBe('科幻, 已读')
    expect(showValue(undefined)).toBe('—')
    expect(showValue('')).toBe('—')
    expect(showValue(3)).toBe('3')
    expect(showValue(true)).toBe('true')
  })
})
