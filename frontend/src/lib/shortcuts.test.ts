import { describe, expect, it } from 'vitest'
import { shortcutFor, shortcuts } from './shortcuts'

describe('shortcutFor', () => {
  it.each([
    [{ key: ' ' }, 'toggle_pause'],
    [{ key: 'j' }, 'next_iteration'],
    [{ key: 'ArrowUp' }, 'prev_iteration'],
    [{ key: '?' }, 'help'],
    [{ key: 'Escape', inField: true }, 'close'],
    [{ key: 'j', inField: true }, null],
    [{ key: 'r', ctrlKey: true }, null],
    [{ key: 'x' }, null],
    [{ key: '/' }, 'search'],
    [{ key: '/', inField: true }, null],
    [{ key: 'f', ctrlKey: true }, 'search'],
    [{ key: 'F', metaKey: true, inField: true }, 'search'],
    [{ key: 'f', ctrlKey: true, altKey: true }, null],
    [{ key: 'g' }, 'goto'],
    [{ key: 'Home' }, 'first_iteration'],
    [{ key: 'End' }, 'last_iteration'],
  ] as const)('%j -> %s', (press, want) => {
    expect(shortcutFor(press)).toBe(want)
  })

  it('lists every action it maps in the help', () => {
    const listed = new Set(shortcuts.map((s) => s.action))
    for (const key of [' ', 'j', 'k', 'i', 's', 'r', 'p', 'ArrowLeft', 'ArrowRight', '?', 'Escape', '/', 'g', 'Home', 'End']) {
      expect(listed.has(shortcutFor({ key })!)).toBe(true)
    }
  })
})
