import { describe, expect, it } from 'vitest'
import { draggedHeight, minPanelHeight, openPanel, panelHeight, panelOpen, setOpenPanel, setPanelHeight, setPanelOpen, type PanelStorage } from './panels'

function memoryStorage(): PanelStorage & { items: Map<string, string> } {
  const items = new Map<string, string>()
  return { items, getItem: (k) => items.get(k) ?? null, setItem: (k, v) => void items.set(k, v), removeItem: (k) => void items.delete(k) }
}

describe('panels', () => {
  it('are open until closed, and each remembers its own state', () => {
    const s = memoryStorage()
    expect(panelOpen(s, 'answer')).toBe(true)
    setPanelOpen(s, 'answer', false)
    expect(panelOpen(s, 'answer')).toBe(false)
    expect(panelOpen(s, 'plan')).toBe(true)
    setPanelOpen(s, 'answer', true)
    expect(panelOpen(s, 'answer')).toBe(true)
    expect([...s.items.keys()]).toEqual(['hermes.panel.answer'])
  })

  it('above the timeline open one at a time, none until one is opened, and remember which', () => {
    const s = memoryStorage()
    expect(openPanel(s)).toBe('')
    setOpenPanel(s, 'budget')
    expect(openPanel(s)).toBe('budget')
    setOpenPanel(s, 'answer')
    expect(openPanel(s)).toBe('answer')
    setOpenPanel(s, '')
    expect(openPanel(s)).toBe('')
    expect(s.items.size).toBe(0)
    // Beside the timeline each keeps its own state apart.
    expect(panelOpen(s, 'budget')).toBe(true)
  })

  it('remember the height each was dragged to, until it is let go back to its content', () => {
    const s = memoryStorage()
    expect(panelHeight(s, 'answer')).toBeNull()
    setPanelHeight(s, 'answer', 321.6)
    expect(panelHeight(s, 'answer')).toBe(322)
    expect(panelHeight(s, 'plan')).toBeNull()
    setPanelHeight(s, 'answer', 3)
    expect(panelHeight(s, 'answer')).toBe(minPanelHeight)
    setPanelHeight(s, 'answer', null)
    expect(panelHeight(s, 'answer')).toBeNull()
    s.items.set('hermes.panel.plan.height', 'tall')
    expect(panelHeight(s, 'plan')).toBeNull()
  })

  it('are dragged within the least height and the room there is', () => {
    expect(draggedHeight(200, 50, 600)).toBe(250)
    expect(draggedHeight(200, 900, 600)).toBe(600)
    expect(draggedHeight(200, -400, 600)).toBe(minPanelHeight)
    // With less room than the least height, the least height holds.
    expect(draggedHeight(200, 0, 10)).toBe(minPanelHeight)
  })

  it('stay as asked when there is no storage or it refuses', () => {
    const refusing: PanelStorage = {
      getItem: () => {
        throw new Error('denied')
      },
      setItem: () => {
        throw new Error('full')
      },
    }
    expect(panelOpen(null, 'plan')).toBe(true)
    expect(panelOpen(refusing, 'plan')).toBe(true)
    expect(openPanel(refusing)).toBe('')
    expect(panelHeight(refusing, 'plan')).toBeNull()
    expect(() => setPanelOpen(refusing, 'plan', false)).not.toThrow()
    expect(() => setOpenPanel(refusing, 'plan')).not.toThrow()
    expect(() => setPanelHeight(refusing, 'plan', 200)).not.toThrow()
  })
})
