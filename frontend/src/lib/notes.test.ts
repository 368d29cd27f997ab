import { describe, expect, it } from 'vitest'
import { backlinksByNote, hideBlockIds, noteOfCall, obsidianOpen, showNote, shownNote, splitFrontMatter, wikilinkParts } from './notes'

describe('notes', () => {
  it('finds the note a read call named', () => {
    expect(noteOfCall('read_note', '{"note":" [[Plan]] "}')).toBe('[[Plan]]')
    expect(noteOfCall('get_properties', '{"path":"Projects/Plan.md"}')).toBe('Projects/Plan.md')
    expect(noteOfCall('search_notes', '{"query":"plan"}')).toBe('')
    expect(noteOfCall('read_note', 'not json')).toBe('')
  })
  it('parts the front matter from the body', () => {
    expect(splitFrontMatter('---\nstatus: draft\ntags: [a]\n---\n# Plan\n')).toEqual({ front: 'status: draft\ntags: [a]', body: '# Plan\n' })
    expect(splitFrontMatter('# Plan\n---\nx\n---\n')).toEqual({ front: '', body: '# Plan\n---\nx\n---\n' })
    expect(splitFrontMatter('---\r\na: 1\r\n---\r\nbody')).toEqual({ front: 'a: 1', body: 'body' })
  })
  it('reads a wikilink’s target and text', () => {
    expect(wikilinkParts('Plan')).toEqual({ target: 'Plan', text: 'Plan' })
    expect(wikilinkParts('Plan#^goal|the goal')).toEqual({ target: 'Plan#^goal', text: 'the goal' })
    expect(wikilinkParts('Plan\\|plan')).toEqual({ target: 'Plan', text: 'plan' })
  })
  it('opens a note in Obsidian by vault and path, without .md', () => {
    expect(obsidianOpen('My Vault', 'Archive/Plan 2024.md')).toBe('obsidian://open?vault=My%20Vault&file=Archive%2FPlan%202024')
    expect(obsidianOpen('笔记', '周报/本周.md')).toBe(`obsidian://open?vault=${encodeURIComponent('笔记')}&file=${encodeURIComponent('周报/本周')}`)
  })
  it('counts each ask, so the same note asked twice shows again', () => {
    const before = shownNote.get().seq
    showNote('r1', 'Plan')
    showNote('r1', 'Plan')
    expect(shownNote.get()).toEqual({ runId: 'r1', name: 'Plan', from: '', seq: before + 2 })
  })
})

describe('a note as shown', () => {
  it('hides block ids at the ends of lines', () => {
    expect(hideBlockIds('Ship it. ^goal\nA ^ in the middle\n- item ^b-1  \n')).toBe('Ship it.\nA ^ in the middle\n- item\n')
  })
  it('lists each linking note once, with its lines', () => {
    expect(backlinksByNote([{ from: 'Weekly.md', line: 5 }, { from: 'Weekly.md', line: 1 }, { from: 'Weekly.md', line: 1 }, { from: '周报/本周.md', line: 1 }])).toEqual([
      { from: 'Weekly.md', lines: [1, 5] },
      { from: '周报/本周.md', lines: [1] },
    ])
  })
})
